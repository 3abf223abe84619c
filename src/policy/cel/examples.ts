// Names ngrok's own published policies use that its variable reference does not define: a
// warning, not a problem (the contract, "CEL, parsed and type-checked"). Each with the example
// that uses it (ngrok-docs 56a5f9960f4e7c7e134fbc0412f74b51b2df5eca).
export const EXAMPLE_ONLY: ReadonlyMap<string, string> = new Map<string, string>([]);
