// Replaced at build time by scripts/build.mjs (and by vitest.config.ts in tests), so the
// CLI never reads package.json at start-up.
declare const __EDGECTL_VERSION__: string | undefined;

export const VERSION: string = typeof __EDGECTL_VERSION__ === "string" ? __EDGECTL_VERSION__ : "0.0.0-dev";

export const USER_AGENT = `edgectl/${VERSION} node/${process.versions.node}`;
