/**
 * Guards the two architecture boundaries of STYLE.md: only `lib/mcp/sdk.ts` imports the MCP SDK, and
 * only `lib/platform/mod.ts` asks which OS we run on.
 * @module
 */
const SDK_ADAPTER = "lib/mcp/sdk.ts";
const PLATFORM_SWITCH = "lib/platform/mod.ts";

const plugin: Deno.lint.Plugin = {
  name: "continue-mcp",
  rules: {
    "sdk-through-adapter": {
      create(context) {
        if (context.filename.replaceAll("\\", "/").endsWith(SDK_ADAPTER)) return {};
        return {
          ImportDeclaration(node) {
            if (String(node.source.value).startsWith("@modelcontextprotocol/sdk")) {
              context.report({ node, message: `Import the MCP SDK through ${SDK_ADAPTER} only` });
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
