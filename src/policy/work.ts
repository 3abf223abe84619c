// A count of the steps edgectl's own walks over a policy take (nodes visited, characters
// copied), read by test/policy/linear.property.test.ts to hold reading, checking and masking
// linear in a policy's size: a walk that came to revisit the whole text or tree for each node
// would make this count grow as the square of the rules. One addition per step; nothing reads
// it at run time.
export const work = { steps: 0 };
