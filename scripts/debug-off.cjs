// Stands in for the `debug` package in dist/proxy-tunnel.cjs (see build.mjs): with DEBUG set
// (DEBUG=* is common on Node developers' machines), https-proxy-agent would print the proxy
// URL, password included, to stderr. edgectl's own log is --debug, redacted.
function createDebug() {
  const log = () => {};
  log.enabled = false;
  log.extend = createDebug;
  return log;
}
module.exports = createDebug;
