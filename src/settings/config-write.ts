// The two libraries a config write needs (a cross-process lock and an atomic write). The
// build makes this its own file, dist/config-write.cjs, required only by the commands that
// write the config file, so that every other command neither reads nor parses it.
export { lock } from "proper-lockfile";
export { default as writeFileAtomic } from "write-file-atomic";
