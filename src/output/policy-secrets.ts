// Where a Traffic Policy keeps its secrets: the walk of src/secrets/walk.ts over the one table
// of secret places (src/secrets/index.ts), for output's callers.
export {
  findSecrets,
  maskPolicyData,
  plainView,
  policySecretValues,
  secretNodes,
  type Found,
  type NodeView,
} from "../secrets/walk.js";
