// conf (with ajv and semver, ~390 KB bundled) is needed only by the commands that write the
// config file (auth login/logout, config set/unset). The build makes this its own file,
// dist/conf-store.cjs, so that every other command neither reads nor parses it.
export { default as Conf } from "conf";
