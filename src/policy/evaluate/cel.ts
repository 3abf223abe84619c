// The evaluator's CEL: ngrok's environment of src/policy/cel (one set of ngrok's functions, one
// program cache, for `policy check`'s checks and for evaluation alike).
export { evaluateExpression, renderTemplate, type Activation } from "../cel/index.js";
