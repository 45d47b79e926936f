/**
 * A fake GitHub release served on 127.0.0.1: this host's archive built from `deno run` wrappers (the same
 * packaging code as the real release), the installers, and one SHA256SUMS.
 */
import { join } from "node:path";
import { archiveRelease, checksumLines, stageRelease } from "../../tools/package.ts";
import { REPO_ROOT } from "../../tools/catalog.ts";
import { serveReleaseFolder } from "../../tools/serve_release.ts";

/** A served fake release; `releases` is the base URL the installers take in `CONTINUE_MCP_RELEASES`. */
export interface FakeRelease extends AsyncDisposable {
  releases: string;
  /** The folder served: edit it to break the release (a wrong SHA256SUMS, a missing archive). */
  assets: string;
  /** Every path requested so far. */
  requested: string[];
}

/** Builds the assets and serves them until disposed. */
export async function serveFakeRelease(): Promise<FakeRelease> {
  const root = await Deno.makeTempDir({ prefix: "continue-mcp-release-" });
  const assets = join(root, "assets");
  await stageRelease({ target: Deno.build.target, out: join(root, "stage"), denoRun: true });
  await archiveRelease({ stage: join(root, "stage"), target: Deno.build.target, out: assets });
  for (const script of ["install.sh", "install.ps1"]) {
    await Deno.copyFile(join(REPO_ROOT, "install", script), join(assets, script));
  }
  await Deno.writeTextFile(join(assets, "SHA256SUMS"), await checksumLines(assets));
  const server = serveReleaseFolder(assets);
  return {
    releases: server.releases,
    assets,
    requested: server.requested,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await Deno.remove(root, { recursive: true });
    },
  };
}
