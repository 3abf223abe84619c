// Durable file writes, shared by every file edgectl keeps: the config file
// (src/settings/config-file.ts), the emulator's state file (src/emulator/store.ts) and the V8
// code cache (src/start.ts). The new content goes to a temp file in the same folder (so the
// rename is atomic), which is renamed over the file: a reader sees the old file or the new one,
// never part of either, and the temp is removed when anything fails. Each writer says how
// durable it needs to be (fsync of the data, of the folder), how the temp is made (exclusive
// create) and what the file keeps (its mode past the umask, its owner, a symbolic link).
//
// It imports only node:fs and node:path: src/start.ts (the start-up entry, which must stay
// light) and the emulator (which stands apart from the CLI's layers) use it too.
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
  promises as fsp,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export interface DurableWrite {
  /** The mode a new file is created with. */
  mode: number;
  /** The temp file's path for the file written (default `.<name>.<pid>.tmp` beside it). */
  temp?: (file: string) => string;
  /**
   * Create the temp exclusively (`wx`, O_CREAT|O_EXCL): fail if anything of that name is there,
   * a symbolic link included (it is never followed).
   */
  exclusive?: boolean;
  /**
   * With `exclusive`: a temp name that is taken is left alone (in a shared folder it may be
   * another user's); without, it is removed, so that a stale temp does not block the next write.
   */
  leaveTaken?: boolean;
  /** fsync the data before the rename. */
  syncData?: boolean;
  /** fsync the folder after the rename, so the rename itself is durable (best effort). */
  syncFolder?: boolean;
  /**
   * Keep what the file is: write through a symbolic link to the file it names, keep an existing
   * file's owner, and give the file `mode` whatever the umask (each best effort where the
   * system refuses it to a user who is not root), as write-file-atomic did for the config file.
   */
  keep?: boolean;
}

const defaultTemp = (file: string) => join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);

/** A chown or chmod refusal that leaves the file as the user could make it (write-file-atomic's rule). */
function refusalOk(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOSYS") return true;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  return !root && (code === "EINVAL" || code === "EPERM");
}

function tolerate(err: unknown): void {
  if (!refusalOk(err)) throw err;
}

function tolerated(step: () => void): void {
  try {
    step();
  } catch (err) {
    tolerate(err);
  }
}

/** Where to write (a link followed when `keep`) and the owner to keep, if any. */
function targetOf(file: string, o: DurableWrite): { target: string; owner?: { uid: number; gid: number } } {
  if (!o.keep) return { target: file };
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    // not there yet (or a dangling link): written where it was named
  }
  try {
    const { uid, gid } = statSync(target);
    return typeof process.getuid === "function" ? { target, owner: { uid, gid } } : { target };
  } catch {
    return { target };
  }
}

/** Writes `data` to `file` through a temp file and a rename, synchronously. */
export function writeDurableSync(file: string, data: string | Uint8Array, o: DurableWrite): void {
  const { target, owner } = targetOf(file, o);
  const temp = (o.temp ?? defaultTemp)(target);
  let fd: number | undefined;
  // With leaveTaken, the temp is removed on failure only once this write made it: an exclusive
  // create that meets a file of that name (another user's, or a planted link) leaves it alone.
  let made = !o.leaveTaken;
  try {
    fd = openSync(temp, o.exclusive ? "wx" : "w", o.mode);
    made = true;
    writeFileSync(fd, data);
    const opened = fd;
    if (owner) tolerated(() => fchownSync(opened, owner.uid, owner.gid));
    if (o.keep) tolerated(() => fchmodSync(opened, o.mode));
    if (o.syncData) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // closed already, or never to be
      }
    }
    try {
      if (made) rmSync(temp, { force: true });
    } catch {
      // nothing was left
    }
    throw err;
  }
  if (o.syncFolder) {
    // Not possible on every platform (Windows): the data is in place; only the rename's
    // durability is left to the system.
    try {
      const dir = openSync(dirname(target), "r");
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } catch {
      // best effort
    }
  }
}

/** Writes `data` to `file` through a temp file and a rename, without blocking the event loop. */
export async function writeDurable(file: string, data: string | Uint8Array, o: DurableWrite): Promise<void> {
  const { target, owner } = targetOf(file, o);
  const temp = (o.temp ?? defaultTemp)(target);
  let made = !o.leaveTaken; // as above
  try {
    const fh = await fsp.open(temp, o.exclusive ? "wx" : "w", o.mode);
    made = true;
    try {
      await fh.writeFile(data);
      if (owner) await fh.chown(owner.uid, owner.gid).catch(tolerate);
      if (o.keep) await fh.chmod(o.mode).catch(tolerate);
      if (o.syncData) await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(temp, target);
  } catch (err) {
    if (made) await fsp.unlink(temp).catch(() => undefined);
    throw err;
  }
  if (o.syncFolder) {
    try {
      const dh = await fsp.open(dirname(target), "r");
      try {
        await dh.sync();
      } finally {
        await dh.close();
      }
    } catch {
      // best effort, as above
    }
  }
}
