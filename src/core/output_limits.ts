/**
 * The output budget's bounds, apart from the budget's code (output_budget.ts): the configuration reads them
 * at start, and a server that has only listed its tools has no reason to load what cuts a result.
 */

/** Characters of text one tool result may hold by default (~6k tokens); SCIENCE_MCP_MAX_OUTPUT_CHARS changes it. */
export const DEFAULT_OUTPUT_MAX_CHARS = 24_000;

/** The smallest budget an operator may set: room for one record and the cut notice. */
export const MIN_OUTPUT_MAX_CHARS = 2_000;
