// What bin/edgectl.js runs (built as dist/cli.cjs). `edgectl --version` and `edgectl --help`
// are answered here, at Node's start-up floor; everything else runs src/cli.ts, which the
// build bundles as dist/main.cjs (the whole tree) and as dist/main-<word>.cjs (the commands
// under one first word: mainBundle below). The root help is commander's own text, saved by
// scripts/build.mjs as dist/help.txt.
//
// Each bundle, and each file of its own a bundle requires (zod, yaml, the config writer, the
// emulator), is compiled with a V8 code cache kept in the user's cache folder: compiling
// commander and the command tree is most of what a command costs beyond `node -e 0`
// (BENCHMARKS.md). V8 accepts a cache only from the same V8 and the same source, so it cannot
// ship in the package: the first run on a Node version makes it (at exit, so that the
// functions the command ran are in it), keyed by Node version and build, written atomically;
// a cache V8 rejects is replaced; failing to write one changes nothing but speed. It is taken
// again, once, by each command that has not run with it (the first line of the file lists them).
//
// It is built as CommonJS, and bin/edgectl.js is CommonJS too (bin/package.json): Node 20's
// ES module loader costs ~10 ms at every start, a quarter of what a command adds to `node -e 0`.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { writeDurableSync } from "./files/durable.js";
import type { Script } from "node:vm";
import { helpWidth } from "./output/help-width.js";
import { isTruthy } from "./settings/resolve.js";
import { VERSION } from "./version.js";

type Cli = typeof import("./cli.js");

type Env = Record<string, string | undefined>;

// A hash of the bundles, defined by scripts/build.mjs: a new build never meets an old cache.
declare const __EDGECTL_BUILD__: string | undefined;
const BUILD = typeof __EDGECTL_BUILD__ === "string" ? __EDGECTL_BUILD__ : "dev";

export async function main(argv: string[] = process.argv, env: Env = process.env): Promise<void> {
  const only = argv.length === 3 ? argv[2] : undefined;
  if (only === "--version" || only === "-v") {
    print(Buffer.from(`${VERSION}\n`));
    return;
  }
  // At a terminal the help may wrap narrower than the saved 80 columns.
  if ((only === "--help" || only === "-h") && (!maybeTerminal() || helpWidth(process.stdout) === 80)) {
    const help = read(join(__dirname, "help.txt"));
    if (help !== undefined) {
      print(help);
      return;
    }
  }
  const load = new CachedLoader(env, commandKey(argv), argv.includes("--debug") || isTruthy(env.EDGECTL_DEBUG));
  const cli = load.run(mainBundle(argv[2])) as Cli;
  await cli.main(argv);
}

/**
 * Compiles and runs bundles with their code caches: the main one, and the sibling bundles it
 * requires when it needs them (zod, yaml, the config writer, the emulator), which would
 * otherwise be compiled from source at every start that uses them.
 */
class CachedLoader {
  private readonly siblings = new Map<string, unknown>();
  constructor(
    private readonly env: Env,
    private readonly command: string,
    private readonly debug: boolean,
  ) {}

  /** Runs a bundle as a CommonJS module; its `./name.cjs` requires come back here. */
  run(bundle: Bundle): unknown {
    const script = this.compile(bundle);
    const module = { exports: {} };
    // A bundle's other requires (builtins) go to Node's own, as in any CommonJS module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const sibling = (id: string) => (/^\.\/[\w-]+\.cjs$/.test(id) ? this.sibling(id.slice(2, -4)) : require(id));
    script.runInThisContext()(module.exports, sibling, module, bundle.path, __dirname);
    return module.exports;
  }

  private sibling(name: string): unknown {
    if (!this.siblings.has(name)) {
      const path = join(__dirname, `${name}.cjs`);
      this.siblings.set(name, this.run({ name, path, body: readFileSync(path, "utf8") }));
    }
    return this.siblings.get(name);
  }

  private compile(bundle: Bundle): Script {
    const file = cacheFile(this.env, bundle.name);
    const own = file === undefined ? undefined : readOwnCache(file);
    const cached = parseCache(own?.data);
    const script = compileBundle(bundle, cached?.data);
    const state = own?.refused ?? (cached === undefined ? "miss" : script.cachedDataRejected ? "rejected" : "hit");
    if (this.debug) process.stderr.write(`debug: code cache ${state}${file === undefined ? "" : ` (${file})`}\n`);
    // The CLI ends with process.exit(): the cache is taken as the process goes. A cache holds
    // the functions of the commands that made it: one that has not run this command yet is
    // taken again (with what it held), once per command, up to MAX_COMMANDS.
    const commands = state === "hit" ? cached!.commands : [];
    if (file !== undefined && !commands.includes(this.command) && commands.length < MAX_COMMANDS) {
      process.once("exit", () => saveCache(script, file, [...commands, this.command]));
    }
    return script;
  }
}

/** Commands a cache is re-taken for; past them it stays as it is. */
const MAX_COMMANDS = 24;
const HEADER = "edgectl-code-cache ";

/**
 * The words that name a command (`failover get`): the first two that are not flags. A flag's
 * value taken for one (`--profile work failover`) only costs one more save of the cache.
 */
function commandKey(argv: string[]): string {
  return argv
    .slice(2)
    .filter((a) => !a.startsWith("-"))
    .slice(0, 2)
    .join(" ");
}

/** A cache file: a line naming the commands it has run (JSON), then V8's data. */
function parseCache(file: Buffer | undefined): { data: Buffer; commands: string[] } | undefined {
  if (file === undefined) return undefined;
  const end = file.indexOf(10);
  try {
    if (file.subarray(0, HEADER.length).toString("latin1") !== HEADER || end < 0) throw new Error("no header");
    const commands: unknown = JSON.parse(file.subarray(HEADER.length, end).toString("utf8"));
    if (!Array.isArray(commands) || !commands.every((c) => typeof c === "string")) throw new Error("bad header");
    return { data: file.subarray(end + 1), commands };
  } catch {
    return { data: file, commands: [] }; // V8 rejects it, and it is replaced
  }
}

/**
 * Where this build's cache for this Node lives: $EDGECTL_CACHE_DIR, else edgectl/ in
 * $XDG_CACHE_HOME or ~/.cache (never the config folder: read-only commands write nothing
 * there); none when there is no home folder to put it in. $HOME is what os.homedir() gives
 * where it is set, without loading node:os.
 */
function cacheFile(env: Env, bundle: string): string | undefined {
  // A variable set to blanks counts as unset.
  const set = (name: string) => (env[name]?.trim() ? env[name] : undefined);
  let dir = set("EDGECTL_CACHE_DIR");
  try {
    dir ??= join(
      set("XDG_CACHE_HOME") ?? join(set("HOME") ?? process.getBuiltinModule("node:os").homedir(), ".cache"),
      "edgectl",
    );
  } catch {
    return undefined;
  }
  return join(dir, `${bundle}-${BUILD}-node${process.versions.node}-${process.arch}.v8cache`);
}

/** A cache file as cacheFile names it: the bundle, then the build's hash. */
const OWN_CACHE = /^([a-z]+(?:-[a-z]+)*)-([0-9a-f]{8,64}|dev)-node\d+\.\d+\.\d+-[a-z0-9]+\.v8cache$/;

/** Whether `name` is one of edgectl's bundles (dist/<name>.cjs beside this file). */
function isBundle(name: string): boolean {
  try {
    return statSync(join(__dirname, `${name}.cjs`)).isFile();
  } catch {
    return false;
  }
}

/** Whether `path` is a regular file (not a link) of this user. */
function isMine(path: string): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && (typeof process.getuid !== "function" || stats.uid === process.getuid());
  } catch {
    return false;
  }
}

/** Whether fd 1 may be a terminal: a character device (fstat, unlike node:tty, loads nothing). */
function maybeTerminal(): boolean {
  try {
    return fstatSync(1).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * A cache file, if it is one this user may trust: code V8 runs from it, and the folder may be
 * shared (EDGECTL_CACHE_DIR). It is opened without following a symbolic link (O_NOFOLLOW), and
 * what was opened (fstat of the descriptor, so nothing can be swapped in between) must be a
 * regular file of this user that no group or other user can write; else it is not loaded
 * (`refused`, and replaced by this run's cache like a rejected one).
 */
function readOwnCache(file: string): { data?: Buffer; refused?: string } | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    // A symbolic link there: ELOOP (Linux, macOS); EMLINK on FreeBSD.
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ELOOP" || code === "EMLINK" ? { refused: "refused (a symbolic link)" } : undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { refused: "refused (not a regular file)" };
    if (typeof process.getuid === "function" && stats.uid !== process.getuid())
      return { refused: "refused (owned by another user)" };
    if ((stats.mode & 0o022) !== 0) return { refused: "refused (writable by others)" };
    return { data: readFileSync(fd) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the cache beside a temp name, then renames it in place; on any failure, nothing. The
 * temp is created exclusively (O_EXCL: never through an existing file or symbolic link, which
 * another user of a shared folder could have planted to have edgectl overwrite what it names),
 * and a temp name that is taken means no cache this time (and is left alone); the rename
 * replaces the name itself.
 */
function saveCache(script: Script, file: string, commands: string[]): void {
  try {
    const dir = join(file, "..");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // No fsync: a cache lost to a crash is only made again.
    writeDurableSync(
      file,
      Buffer.concat([Buffer.from(`${HEADER}${JSON.stringify(commands)}\n`), script.createCachedData()]),
      { mode: 0o600, temp: (target) => `${target}.${process.pid}.tmp`, exclusive: true, leaveTaken: true },
    );
    // Caches of other builds are dead weight once this one exists (other Node versions' stay).
    // Only files edgectl named: `<bundle>-<build>-node<version>-<arch>.v8cache`, for a bundle
    // this build has (the folder may be shared: EDGECTL_CACHE_DIR), never another tool's, and
    // only regular files of this user: never a link, nor another user's cache of that name.
    for (const name of readdirSync(dir)) {
      const own = OWN_CACHE.exec(name);
      if (own && own[2] !== BUILD && isBundle(own[1]!) && isMine(join(dir, name)))
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // no cache this time (writeDurableSync removed its temp file)
  }
}

/**
 * Writes to fd 1 directly: making process.stdout (a stream, with net or tty behind it) is a
 * tenth of what `--version` would cost. A reader gone (EPIPE) ends the output quietly; a
 * non-blocking pipe that is full (EAGAIN) gets the rest through process.stdout.
 */
function print(text: Buffer): void {
  let written = 0;
  try {
    while (written < text.length) written += writeSync(1, text, written);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EAGAIN") process.stdout.write(text.subarray(written));
    // Output that cannot be written (a full disk, a closed stdout) is an error, as src/cli.ts
    // makes it for every command; a reader closing the pipe is not.
    else if (code !== "EPIPE") {
      process.stderr.write(`error: cannot write output: ${(err as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}

/** A bundle of src/cli.ts: its name (main, main-failover) and its path, with its source. */
interface Bundle {
  name: string;
  path: string;
  body: string;
}

/**
 * dist/main-<word>.cjs when the command line starts with a word that has one (scripts/build.mjs
 * makes one for each command at the root but completion: it holds that word's commands alone),
 * else dist/main.cjs, the whole tree. __dirname: this file runs as dist/cli.cjs, beside them.
 */
function mainBundle(word: string | undefined): Bundle {
  if (word !== undefined && /^[a-z]+(-[a-z]+)*$/.test(word)) {
    const name = `main-${word}`;
    const path = join(__dirname, `${name}.cjs`);
    const body = read(path);
    if (body !== undefined) return { name, path, body: body.toString("utf8") };
  }
  const path = join(__dirname, "main.cjs");
  return { name: "main", path, body: readFileSync(path, "utf8") };
}

/**
 * A bundle, which scripts/build.mjs writes as a CommonJS module body's function expression
 * (`(function (exports, require, module, __filename, __dirname) {…})`): compiled as read.
 */
function compileBundle(bundle: Bundle, cachedData?: Buffer): Script {
  const vm = process.getBuiltinModule("node:vm");
  return new vm.Script(bundle.body, { filename: bundle.path, cachedData });
}

function read(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
