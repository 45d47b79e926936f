/**
 * Guards the two architecture boundaries of STYLE.md: only the SDK adapter (`lib/mcp/sdk.ts`, the server
 * half, and `lib/mcp/sdk_client.ts`, the client half) imports the MCP SDK, and only `lib/platform/mod.ts`
 * asks which OS we run on.
 * @module
 */
const SDK_ADAPTER = "lib/mcp/sdk.ts";
const SDK_CLIENT_ADAPTER = "lib/mcp/sdk_client.ts";
const PLATFORM_SWITCH = "lib/platform/mod.ts";

const plugin: Deno.lint.Plugin = {
  name: "continue-mcp",
  rules: {
    "sdk-through-adapter": {
      create(context) {
        const file = context.filename.replaceAll("\\", "/");
        if (file.endsWith(SDK_ADAPTER) || file.endsWith(SDK_CLIENT_ADAPTER)) return {};
        return {
          ImportDeclaration(node) {
            if (String(node.source.value).startsWith("@modelcontextprotocol/sdk")) {
              context.report({
                node,
                message: `Import the MCP SDK through ${SDK_ADAPTER} or ${SDK_CLIENT_ADAPTER} only`,
              });
            }
          },
        };
      },
    },
    "os-check-in-platform": {
      create(context) {
        if (context.filename.replaceAll("\\", "/").endsWith(PLATFORM_SWITCH)) return {};
        return {
          'MemberExpression[object.object.name="Deno"][object.property.name="build"][property.name="os"]'(
            node: Deno.lint.MemberExpression,
          ) {
            context.report({ node, message: `Ask which OS we run on through ${PLATFORM_SWITCH} only` });
          },
        };
      },
    },
  },
};

export default plugin;
