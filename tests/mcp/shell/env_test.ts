import assert from "node:assert/strict";
import { ToolError } from "../../../lib/mcp/errors.ts";
import { jobEnv, parseEnvAllow } from "../../../mcp/shell/env.ts";

const serverEnv = { PATH: "/bin", HOME: "/h", LC_ALL: "C", LC_TIME: "x", AWS_SECRET: "s" };

Deno.test("jobEnv overlays the server's environment with NO_COLOR, the call's env and the marker", () => {
  const { env, clearEnv } = jobEnv({ serverEnv, overlay: { A: "1" }, marker: "SHELL_MCP_JOB=9.1" });
  assert.equal(clearEnv, false);
  assert.deepEqual(env, { NO_COLOR: "1", A: "1", SHELL_MCP_JOB: "9.1" });
});

Deno.test("jobEnv with an allowlist passes only matching names, globs included", () => {
  const { env, clearEnv } = jobEnv({
    serverEnv,
    allow: parseEnvAllow(" PATH, lc_* ,"),
    overlay: { NO_COLOR: "" },
    marker: "SHELL_MCP_JOB=9.2",
  });
  assert.equal(clearEnv, true);
  assert.deepEqual(env, { PATH: "/bin", LC_ALL: "C", LC_TIME: "x", NO_COLOR: "", SHELL_MCP_JOB: "9.2" });
});

Deno.test("jobEnv never passes HTTP mode's variables, not even on a matching allowlist", () => {
  const withToken = { ...serverEnv, MCP_HTTP_TOKEN: "secret", "mcp_http_stateless": "1" };
  const inherited = jobEnv({ serverEnv: withToken, marker: "SHELL_MCP_JOB=9.4" });
  // Inheriting would hand the job the token: it starts from a cleared environment without it instead.
  assert.equal(inherited.clearEnv, true);
  assert.deepEqual(inherited.env, { ...serverEnv, NO_COLOR: "1", SHELL_MCP_JOB: "9.4" });
  const allowed = jobEnv({ serverEnv: withToken, allow: ["*"], marker: "SHELL_MCP_JOB=9.5" });
  assert.deepEqual(allowed.env, { ...serverEnv, NO_COLOR: "1", SHELL_MCP_JOB: "9.5" });
});

Deno.test("parseEnvAllow: unset or blank means no allowlist", () => {
  assert.equal(parseEnvAllow(undefined), undefined);
  assert.equal(parseEnvAllow("  "), undefined);
  assert.deepEqual(parseEnvAllow("A,B*"), ["A", "B*"]);
});

Deno.test("jobEnv refuses env names that are empty or hold = or NUL, and values with NUL, naming the variable", () => {
  const marker = "SHELL_MCP_JOB=9.3";
  for (const name of ["", "A=B", "A\0B"]) {
    assert.throws(
      () => jobEnv({ serverEnv, overlay: { [name]: "1" }, marker }),
      (error: unknown) =>
        error instanceof ToolError && error.code === "invalid_argument" &&
        error.message.startsWith(`Cannot set env variable ${JSON.stringify(name)}: a name must be`),
    );
  }
  assert.throws(
    () => jobEnv({ serverEnv, overlay: { OK: "1", BAD: "x\0y" }, marker }),
    (error: unknown) =>
      error instanceof ToolError && error.code === "invalid_argument" &&
      error.message === 'Cannot set env variable "BAD": its value contains a NUL byte; remove it',
  );
});
