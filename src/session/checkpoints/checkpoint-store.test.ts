import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { CheckpointStore } from "./checkpoint-store.js";
import { ConversationCheckpoints } from "./conversation-checkpoints.js";

describe("CheckpointStore", () => {
  test("keeps each file's content from before the turn's first write, once, in private files", async ({ tempDirs }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const store = new CheckpointStore(join(root, "s.checkpoints"));
    const file = join(root, "a.txt");
    await writeFile(file, "one\n", { mode: 0o640 });
    await store.before(1, file, Buffer.from("one\n"));
    await writeFile(file, "two\n");
    await store.after(1, file, "two\n");
    await store.before(1, file, Buffer.from("two\n")); // a second write in the same turn keeps the first content
    await store.after(1, file, "three\n");

    const [turn] = await store.turns();
    expect(turn?.files).toHaveLength(1);
    expect(turn?.files[0]).toMatchObject({ path: file, mode: 0o640, createdDirs: [] });
    expect((await store.content(turn!.files[0]!.before!)).toString()).toBe("one\n");
    expect((await stat(join(root, "s.checkpoints"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, "s.checkpoints", "index.json"))).mode & 0o777).toBe(0o600);
    const reopened = new CheckpointStore(join(root, "s.checkpoints"));
    expect(await reopened.turns()).toEqual(await store.turns());
  });

  test("does not keep a file over the per-file cap, nor past the per-conversation cap, and says so", async ({
    tempDirs,
  }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const dir = join(root, "s.checkpoints");
    const store = new CheckpointStore(dir, { fileBytes: 10, sessionBytes: 15 });
    await store.before(1, join(root, "big.txt"), Buffer.from("more than ten bytes"));
    await store.before(1, join(root, "small.txt"), Buffer.from("0123456789"));
    await store.before(2, join(root, "third.txt"), Buffer.from("0123456"));
    const turns = await store.turns();
    expect(turns.flatMap((turn) => turn.files.map((file) => [file.path.slice(root.length + 1), file.notKept]))).toEqual(
      [
        ["big.txt", true],
        ["small.txt", undefined],
        ["third.txt", true],
      ],
    );
    expect(await readdir(join(dir, "blobs"))).toHaveLength(1);
  });

  test("forgetting turns removes the contents only they used", async ({ tempDirs }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const dir = join(root, "s.checkpoints");
    const store = new CheckpointStore(dir);
    await store.before(1, join(root, "a.txt"), Buffer.from("shared"));
    await store.before(2, join(root, "b.txt"), Buffer.from("shared"));
    await store.before(2, join(root, "c.txt"), Buffer.from("only two"));
    await store.forgetFrom(2);
    expect((await store.turns()).map((turn) => turn.message)).toEqual([1]);
    expect(await readdir(join(dir, "blobs"))).toHaveLength(1);
  });
});

describe("ConversationCheckpoints", () => {
  test("restores created, changed and deleted files, asking before overwriting a file changed since", async ({
    tempDirs,
  }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const checkpoints = new ConversationCheckpoints(() => join(root, "s.checkpoints"));
    const [created, changed, deleted] = ["new/deep/a.txt", "b.txt", "c.txt"].map((path) => join(root, path));
    await writeFile(changed!, "b before\n");
    await writeFile(deleted!, "c before\n");
    checkpoints.message = 3;
    await checkpoints.before(created!, null);
    await mkdir(join(root, "new", "deep"), { recursive: true });
    await writeFile(created!, "a\n");
    await checkpoints.after(created!, "a\n");
    await checkpoints.before(changed!, Buffer.from("b before\n"));
    await writeFile(changed!, "b by Marvin\n");
    await checkpoints.after(changed!, "b by Marvin\n");
    checkpoints.message = 5;
    await checkpoints.before(deleted!, Buffer.from("c before\n"));
    await rm(deleted!);
    await checkpoints.after(deleted!, null);
    await writeFile(changed!, "b by the user\n");

    const plan = await checkpoints.planFrom(3);
    expect(plan.changed.map((file) => file.path)).toEqual([changed]);
    const kept = await checkpoints.restore(plan, false);
    expect(kept).toEqual({ restored: [created, deleted], kept: [changed], notKept: [], failed: [] });
    expect(await readFile(changed!, "utf8")).toBe("b by the user\n");
    expect(await readFile(deleted!, "utf8")).toBe("c before\n");
    expect(await readdir(root)).not.toContain("new");
    expect(await checkpoints.turns()).toEqual([]);
  });
});

describe("restoring", () => {
  test("never writes through a folder that became a link since Marvin wrote there", async ({ tempDirs }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const checkpoints = new ConversationCheckpoints(() => join(root, "s.checkpoints"));
    await mkdir(join(root, "dir"));
    await mkdir(join(root, "elsewhere"));
    const file = join(root, "dir", "x.txt");
    await writeFile(file, "before\n");
    checkpoints.message = 1;
    await checkpoints.before(file, Buffer.from("before\n"));
    await writeFile(file, "after\n");
    await checkpoints.after(file, "after\n");
    await rm(join(root, "dir"), { recursive: true });
    await writeFile(join(root, "elsewhere", "x.txt"), "after\n");
    await symlink(join(root, "elsewhere"), join(root, "dir"));

    const outcome = await checkpoints.restore(await checkpoints.planFrom(1), true);
    expect(outcome.failed).toEqual([
      `${file} (${join(root, "dir")} is now a link, which Marvin did not make: nothing is restored through it)`,
    ]);
    expect(await readFile(join(root, "elsewhere", "x.txt"), "utf8")).toBe("after\n");
  });

  test("never deletes through a folder that became a link, and says which file it left and why", async ({
    tempDirs,
  }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const [work, outside] = [join(root, "work"), join(root, "outside")];
    await mkdir(outside);
    const checkpoints = new ConversationCheckpoints(() => join(root, "s.checkpoints"));
    const created = join(work, "out", "deep", "a.txt");
    checkpoints.message = 1;
    await checkpoints.before(created, null);
    await mkdir(join(work, "out", "deep"), { recursive: true });
    await writeFile(created, "made\n");
    await checkpoints.after(created, "made\n");
    // A command swaps out/ for a link to a folder outside, holding a file of the same name and content.
    await mkdir(join(outside, "deep"));
    await writeFile(join(outside, "deep", "a.txt"), "made\n");
    await rm(join(work, "out"), { recursive: true });
    await symlink(outside, join(work, "out"));

    const plan = await checkpoints.planFrom(1);
    expect(plan.changed).toEqual([]);
    const outcome = await checkpoints.restore(plan, false);
    expect(outcome).toEqual({
      restored: [],
      kept: [],
      notKept: [],
      failed: [
        `${created} (${join(work, "out")} is now a link, which Marvin did not make: nothing is restored through it)`,
      ],
    });
    expect(await readFile(join(outside, "deep", "a.txt"), "utf8")).toBe("made\n");
    expect(await readdir(outside)).toEqual(["deep"]);
  });

  test("a file tool refuses a change it cannot checkpoint, and changes nothing", async ({ tempDirs, harnesses }) => {
    const root = await tempDirs.make("marvin-checkpoints-");
    const work = join(root, "work");
    await mkdir(work);
    const harness = await harnesses.open({ home: join(root, "home"), codingMode: true, workingDir: work, record: {} });
    const dir = harness.session.sessions!.checkpointsDirOf(harness.session.conversationId!);
    await mkdir(join(dir, ".."), { recursive: true });
    await writeFile(dir, "a file where the folder belongs");
    const message = await harness.failure("create_file", { path: "a.txt", content: "x" });
    expect(message).toMatch(
      /^Error in create_file: Could not keep a checkpoint of a\.txt for rewind \(.+\), so it was not changed\./,
    );
    expect(await readdir(work)).toEqual([]);
  });
});
