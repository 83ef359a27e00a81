import { TOOL_NAME_PATTERN } from '../tools/policy.js';

const OUTSIDE_RULE = /[^a-zA-Z0-9_-]/g;

/**
 * A WebMCP name made to fit our rule (`^[a-zA-Z0-9_-]{1,64}$`, what OpenAI-compatible
 * servers accept): other characters become `_`, cut to 64. WebMCP allows `.` and up to
 * 128 characters, so two names can fit to one: the caller refuses that.
 */
export function fitToolName(name: string): string {
  if (TOOL_NAME_PATTERN.test(name)) return name;
  return name.replace(OUTSIDE_RULE, '_').slice(0, 64) || '_';
}
