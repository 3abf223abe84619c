// What a config write needs beyond reading: the cross-process lock (proper-lockfile) and the
// durable write every kept file shares (src/files/durable.ts: a temp file fsynced and renamed
// over the file, 0600, through a symbolic link, the owner kept). The build makes this its own
// file, dist/config-write.cjs, required only by the commands that write the config file, so
// that every other command neither reads nor parses it.
export { lock } from "proper-lockfile";
export { writeDurableSync } from "../files/durable.js";
