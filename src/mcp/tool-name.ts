/** The longest name OpenAI-compatible servers accept (see TOOL_NAME_PATTERN). */
const MAX_NAME = 64;

/** The registered name of a server's tool: `${prefix}_${name}`, characters outside `[a-zA-Z0-9_-]` made `_`, cut to 64. */
export function fitToolName(name: string, prefix?: string): string {
  const full = prefix === undefined ? name : `${prefix}_${name}`;
  const fitted = full.replace(/[^a-zA-Z0-9_-]/gu, '_').slice(0, MAX_NAME);
  return fitted === '' ? '_' : fitted;
}
