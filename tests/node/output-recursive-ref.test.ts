// Typed answers: an `output` schema whose `$ref`s loop without going into the value is refused when
// the run starts, with the same coded error in both validation modes; recursion through properties
// and items (a tree) is a schema like any other.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine, type ParametersSchema, type ValidationMode } from '../../src/index.js';

const MODES: ValidationMode[] = ['auto', 'no-eval'];

/** Schemas a validator could never finish with: each `$ref` loop stays on the same value. */
const LOOPS: Record<string, Record<string, unknown>> = {
  'the root referring to itself': { type: 'object', $ref: '#' },
  'allOf through the root': { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ $ref: '#' }] },
  'two definitions referring to each other': {
    definitions: { a: { $ref: '#/definitions/b' }, b: { anyOf: [{ $ref: '#/definitions/a' }] } },
    $ref: '#/definitions/a',
  },
  'a loop below a property': { type: 'object', properties: { child: { $ref: '#/definitions/x' } }, definitions: { x: { not: { $ref: '#/definitions/x' } } } },
  'if/then referring back': { if: { $ref: '#' }, then: { type: 'object' } },
};

const tree = {
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  required: ['name', 'children'],
  additionalProperties: false,
};

describe('output: a $ref loop that stays on the same value', () => {
  for (const validation of MODES) {
    for (const [name, output] of Object.entries(LOOPS)) {
      it(`${name}: invalid_option when the run starts, naming the $ref (${validation})`, async () => {
        // No replies: a model turn would fail the run with another error.
        const agent = await Agent.make(scriptedEngine([]), { validation });
        const refused = await new ChatRunner().run(agent, 'go', { output }).result.catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/\$ref ".*" refers back .* validating would never end/) });
      });
    }
  }
});

describe('output: recursion through properties and items', () => {
  for (const validation of MODES) {
    it(`a tree schema validates a nested answer, and refuses a wrong leaf deep inside (${validation})`, async () => {
      const answer = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
      const wrong = { name: 'a', children: [{ name: 'b', children: [{ name: 7, children: [] }] }] };
      const agent = await Agent.make(scriptedEngine([JSON.stringify(wrong), JSON.stringify(answer)]), { validation });
      const result = await new ChatRunner().run(agent, 'go', { output: tree, maxOutputRetries: 1 }).result;
      expect(result.output).toEqual(answer);
      const note = result.messages.find((m) => m.role === 'user' && m.origin === 'runtime');
      expect(String(note?.content)).toContain('/children/0/children/0/name');
    });
  }
});

describe('tool parameters: the same check at registration', () => {
  for (const validation of MODES) {
    it(`a tool whose parameters loop through allOf is refused with invalid_tool (${validation})`, async () => {
      const agent = await Agent.make(scriptedEngine([]), { validation });
      const parameters: ParametersSchema = { type: 'object', allOf: [{ $ref: '#' }] };
      const looping = defineTool({
        name: 'loops',
        description: 'never validates',
        parameters,
        idempotent: true,
        call: () => 'ran',
      });
      expect(() => agent.tool(looping)).toThrow(expect.objectContaining({ code: 'invalid_tool', message: expect.stringContaining('$ref "#" refers back') }));
      expect(agent.registry.names()).toEqual([]);
    });
  }
});
