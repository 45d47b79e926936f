import assert from "node:assert/strict";
import { join } from "node:path";
import { addGrant, grantsDir, readGrants } from "../../../lib/sandbox/proxy_grants.ts";
import { answerOf, domainAsker, type DomainForm, domainForm } from "../../../lib/sandbox/proxy_ask.ts";
import { NotPrivateError } from "../../../lib/fs/private_dir.ts";
import { tempWorkspace } from "../../_support/workspace.ts";

const question = { jobId: "4", host: "new.example", port: 443 };

Deno.test("grants: an 'always' host is stored privately per workspace, outside it, and read back", async () => {
  await using home = await tempWorkspace();
  const dir = grantsDir(home.join("config"));
  assert.deepEqual(await readGrants(dir, "/ws/a"), []);
  await addGrant(dir, "/ws/a", "New.Example");
  await addGrant(dir, "/ws/a", "new.example");
  await addGrant(dir, "/ws/a", "other.example");
  assert.deepEqual(await readGrants(dir, "/ws/a"), ["new.example", "other.example"]);
  assert.deepEqual(await readGrants(dir, "/ws/b"), []);
  assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  for await (const entry of Deno.readDir(dir)) {
    assert.match(entry.name, /^[0-9a-f]{64}\.json$/);
    assert.equal((await Deno.stat(join(dir, entry.name))).mode! & 0o777, 0o600);
  }
  await assert.rejects(addGrant(dir, "/ws/a", "not a host"), /not a host name/);
});

Deno.test("grants: another workspace's file under this one's name, or a file open to others, grants nothing", async () => {
  await using home = await tempWorkspace();
  const dir = grantsDir(home.join("config"));
  await addGrant(dir, "/ws/a", "a.example");
  await addGrant(dir, "/ws/b", "b.example");
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) files.push(join(dir, entry.name));
  const [first, second] = files;
  const firstText = await Deno.readTextFile(first);
  await Deno.writeTextFile(second, firstText);
  const owners = [await readGrants(dir, "/ws/a"), await readGrants(dir, "/ws/b")].flat();
  assert.equal(owners.length, 1, "the copied file names its own workspace and is ignored under the other's");
  await Deno.chmod(first, 0o644);
  await Deno.chmod(second, 0o644);
  await assert.rejects(readGrants(dir, "/ws/a"), NotPrivateError);
});

Deno.test("domainForm/answerOf: one choice of three; decline means deny, anything else unanswered", () => {
  const form = domainForm(question);
  assert.match(form.message, /"new\.example" \(port 443\)/);
  assert.deepEqual(form.requestedSchema.properties.answer.enum, ["once", "always", "deny"]);
  assert.equal(answerOf({ action: "accept", content: { answer: "once" } }), "once");
  assert.equal(answerOf({ action: "accept", content: { answer: "always" } }), "always");
  assert.equal(answerOf({ action: "accept", content: { answer: "everything" } }), "dismissed");
  assert.equal(answerOf({ action: "decline" }), "deny");
  assert.equal(answerOf({ action: "cancel" }), "dismissed");
});

Deno.test("domainAsker: 'always' is stored for the workspace; 'once' is not", async () => {
  await using home = await tempWorkspace();
  const dir = grantsDir(home.join("config"));
  const forms: DomainForm[] = [];
  let reply = "always";
  const ask = domainAsker({
    elicit: (form) => (forms.push(form), Promise.resolve({ action: "accept", content: { answer: reply } })),
    grantsDir: dir,
    workspace: "/ws/a",
  });
  assert.equal(await ask(question), "always");
  reply = "once";
  assert.equal(await ask({ ...question, host: "once.example" }), "once");
  assert.equal(forms.length, 2);
  assert.deepEqual(await readGrants(dir, "/ws/a"), ["new.example"]);
});
