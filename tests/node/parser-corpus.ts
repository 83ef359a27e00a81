/**
 * A hostile corpus of model replies for the tag parser. Every expectation is written
 * by hand, or built by the same rule that built the input (e.g. "the call we
 * serialised into the block"), never by running the parser.
 *
 * Rules the expectations follow (the parser's specification):
 * - text = everything outside complete tag blocks, concatenated as is;
 * - each block yields one call per valid object, one error per invalid item, or one
 *   error for the whole block (broken JSON, empty, not an object, empty list);
 * - a close tag inside a JSON string does not end a block; when the string-aware scan
 *   reaches the end, the block is cut at the first literal close tag; with no close
 *   tag at all the rest of the reply is one "unclosed" error and not text.
 */

export interface ExpectedCall {
  name: string;
  arguments: unknown;
}

export interface CorpusCase {
  name: string;
  input: string;
  /** Tags other than the default `[TOOL_CALL]` / `[/TOOL_CALL]`. */
  tags?: { open: string; close: string };
  expect: { calls: ExpectedCall[]; errors: number; text: string };
}

const O = '[TOOL_CALL]';
const C = '[/TOOL_CALL]';
const HERMES = { open: '<tool_call>', close: '</tool_call>' };

const block = (payload: string) => `${O}${payload}${C}`;
const json = (value: unknown) => JSON.stringify(value);
const call = (name: string, args: unknown = {}): ExpectedCall => ({ name, arguments: args });

/** A reply whose only content is text: it must come back unchanged. */
const textOnly = (name: string, input: string, tags?: CorpusCase['tags']): CorpusCase => ({
  name,
  input,
  ...(tags ? { tags } : {}),
  expect: { calls: [], errors: 0, text: input },
});

const ok = (name: string, input: string, calls: ExpectedCall[], text = '', tags?: CorpusCase['tags']): CorpusCase => ({
  name,
  input,
  ...(tags ? { tags } : {}),
  expect: { calls, errors: 0, text },
});

const bad = (name: string, input: string, errors: number, text = '', calls: ExpectedCall[] = [], tags?: CorpusCase['tags']): CorpusCase => ({
  name,
  input,
  ...(tags ? { tags } : {}),
  expect: { calls, errors, text },
});

// ── Plain text and text that imitates tags: no complete open tag, so all of it is text.
const plainText: CorpusCase[] = [
  textOnly('empty reply', ''),
  textOnly('plain sentence', 'The capital of France is Paris.'),
  textOnly('whitespace only', ' \n\t \r\n '),
  textOnly('emoji and ZWJ sequences', 'Family: 👨‍👩‍👧‍👦, flags 🇫🇷🇯🇵, skin 👍🏽'),
  textOnly('CJK text', '今天天气很好。明日は晴れです。오늘 날씨 좋네요.'),
  textOnly('right-to-left text', 'مرحبا بالعالم — שלום עולם'),
  textOnly('combining marks and zero-width characters', 'e\u0301 a\u200bb c\u200dd'),
  textOnly('bare JSON outside tags is not a call', '{"name": "search", "args": {"q": "cats"}}'),
  textOnly('fenced JSON outside tags is not a call', '```json\n{"name": "search", "args": {}}\n```'),
  textOnly('open tag without its closing bracket', 'Use [TOOL_CALL {"name":"a"} to call.'),
  textOnly('lowercase tags', '[tool_call]{"name":"a"}[/tool_call]'),
  textOnly('close tag without an open tag', 'All done.[/TOOL_CALL]'),
  textOnly('two stray close tags', '[/TOOL_CALL][/TOOL_CALL]'),
  textOnly('open tag missing its opening bracket', 'TOOL_CALL]{"name":"a"}[/TOOL_CALL]'),
  textOnly('spaces inside the brackets', '[ TOOL_CALL ]{"name":"a"}[ /TOOL_CALL ]'),
  textOnly('markdown-escaped brackets', '\\[TOOL_CALL\\]{"name":"a"}\\[/TOOL_CALL\\]'),
  textOnly('hyphen instead of underscore', '[TOOL-CALL]{"name":"a"}[/TOOL-CALL]'),
  textOnly('plural tag name', '[TOOL_CALLS]{"name":"a"}[/TOOL_CALLS]'),
  textOnly('full-width brackets', '【TOOL_CALL】{"name":"a"}【/TOOL_CALL】'),
  textOnly('zero-width space inside the tag', '[TOOL\u200b_CALL]{"name":"a"}[/TOOL_CALL]'),
  textOnly('hermes tags under the default parser', '<tool_call>{"name":"a"}</tool_call>'),
  textOnly('default tags under the hermes parser', '[TOOL_CALL]{"name":"a"}[/TOOL_CALL]', HERMES),
  textOnly('uppercase hermes tags under the hermes parser', '<TOOL_CALL>{"name":"a"}</TOOL_CALL>', HERMES),
  textOnly('partial open tag at the very end', 'Let me look that up [TOOL_CAL'),
  textOnly('partial hermes tag at the very end', 'One moment <tool_ca', HERMES),
  textOnly('many open brackets', '[[[[[[[[[[[[[[[[[[[['),
  textOnly('repeated tag prefixes', '[TOOL_[TOOL_C[TOOL_CA[TOOL_CALL[TOOL_CAL'),
  textOnly('tag named in backticks without its bracket', 'Write `[TOOL_CALL` and then `/TOOL_CALL]`.'),
];

// ── Valid single calls: each argument value is written in each style; the call expected is the one serialised.
const argumentValues: Array<[string, string, Record<string, unknown>]> = [
  ['no arguments', 'now', {}],
  ['a string argument', 'search', { q: 'weather in Paris' }],
  ['numbers, booleans and null', 'compute', { n: 42, f: -1.5e3, ok: true, none: null }],
  ['a mixed list', 'store', { list: [1, 'two', { three: 3 }, [4]] }],
  ['deeply nested objects', 'config.set', { nested: { deep: { deeper: { x: 'y' } } } }],
  ['emoji, CJK and RTL', '搜索', { emoji: '🙂🚀', cjk: '天气', rtl: 'مرحبا بالعالم' }],
  ['quotes, backslashes, newlines', 'fs.write', { quote: 'she said "hi"', path: 'C:\\temp\\', body: 'a\nb\tc' }],
  ['markup and look-alike tags', 'render', { html: '<b>bold</b> & </tool_call> [/TOOL_CALL] [TOOL_CALL]' }],
];

const writers: Array<[string, (name: string, args: unknown) => string, string]> = [
  ['compact "args"', (name, args) => `Sure. ${block(json({ name, args }))}`, 'Sure. '],
  ['"arguments" key', (name, args) => `${block(json({ name, arguments: args }))} Done.`, ' Done.'],
  ['pretty-printed', (name, args) => block(JSON.stringify({ name, args }, null, 2)), ''],
  ['padded with newlines', (name, args) => `A\n${block(`\n  ${json({ name, args })}\n`)}\nB`, 'A\n\nB'],
  ['in a ```json fence', (name, args) => block(`\n\`\`\`json\n${json({ name, args })}\n\`\`\`\n`), ''],
  ['in a plain ``` fence', (name, args) => `x${block(`\`\`\`\n${json({ name, args })}\n\`\`\``)}y`, 'xy'],
];

const styledCalls: CorpusCase[] = argumentValues.flatMap(([what, name, args]) =>
  writers.map(([style, write, text]) => ok(`valid call with ${what}, ${style}`, write(name, args), [call(name, args)], text)),
);

// ── "args" and "arguments".
const argumentForms: CorpusCase[] = [
  ok('missing args means no arguments', block('{"name":"now"}'), [call('now', {})]),
  ok('"arguments" accepted in place of "args"', block('{"name":"search","arguments":{"q":"x"}}'), [call('search', { q: 'x' })]),
  bad('both "args" and "arguments" is an error', block('{"name":"a","args":{"x":1},"arguments":{"x":2}}'), 1),
  ok('null args kept as null', block('{"name":"f","args":null}'), [call('f', null)]),
  ok('array args kept as an array', block('{"name":"f","args":[1,2]}'), [call('f', [1, 2])]),
  ok('number args kept as a number', block('{"name":"f","args":42}'), [call('f', 42)]),
  ok('double-encoded object args decoded', block(json({ name: 'search', arguments: json({ q: 'cats' }) })), [call('search', { q: 'cats' })]),
  ok('double-encoded "args" decoded', block(json({ name: 'search', args: json({ q: 'dogs', n: 2 }) })), [call('search', { q: 'dogs', n: 2 })]),
  ok('double-encoded array decoded', block(json({ name: 'sum', args: '[1, 2, 3]' })), [call('sum', [1, 2, 3])]),
  ok('double-encoded with padding decoded', block(json({ name: 'f', args: '  {"a": 1}\n' })), [call('f', { a: 1 })]),
  ok('string args that are not JSON kept raw', block(json({ name: 'search', arguments: 'cats and dogs' })), [call('search', 'cats and dogs')]),
  ok('empty string args kept raw', block(json({ name: 'f', args: '' })), [call('f', '')]),
  ok('truncated double-encoded args kept raw', block(json({ name: 'f', args: '{"q": ' })), [call('f', '{"q": ')]),
  ok('triple-encoded args decoded once', block(json({ name: 'f', args: json(json({ q: 1 })) })), [call('f', json({ q: 1 }))]),
  ok('unknown extra fields ignored', block('{"id":"x1","type":"function","name":"f","args":{}}'), [call('f', {})]),
];

// ── Names.
const names: CorpusCase[] = [
  bad('missing name', block('{"args":{"q":"x"}}'), 1),
  bad('null name', block('{"name":null,"args":{}}'), 1),
  bad('number name', block('{"name":42,"args":{}}'), 1),
  bad('empty name', block('{"name":"","args":{}}'), 1),
  bad('blank name', block('{"name":"   ","args":{}}'), 1),
  bad('list name', block('{"name":["search"],"args":{}}'), 1),
  bad('object name', block('{"name":{"x":1}}'), 1),
  bad('"tool" instead of "name"', block('{"tool":"search","args":{}}'), 1),
  bad('OpenAI function shape is not this format', block('{"type":"function","function":{"name":"f","arguments":"{}"}}'), 1),
  bad('empty object', block('{}'), 1),
  ok('name with inner spaces kept', block('{"name":"get weather"}'), [call('get weather', {})]),
  ok('name written with unicode escapes decoded', block('{"name":"\\u641c\\u7d22","args":{}}'), [call('搜索', {})]),
];

// ── Payloads that are not one object.
const nonObjects: CorpusCase[] = [
  bad('number payload', block('42'), 1),
  bad('string payload', block('"search"'), 1),
  bad('null payload', block('null'), 1),
  bad('boolean payload', block('true'), 1),
  bad('empty list', block('[]'), 1),
  bad('list of numbers: one error each', block('[1, 2]'), 2),
  bad('list nested in a list', block('[[{"name":"a"}]]'), 1),
];

// ── Lists of calls.
const lists: CorpusCase[] = [
  ok('two calls in a list', block('[{"name":"a","args":{"x":1}},{"name":"b","args":{"y":2}}]'), [call('a', { x: 1 }), call('b', { y: 2 })]),
  bad('valid then a number', block('[{"name":"a"}, 7]'), 1, '', [call('a')]),
  bad('valid, nameless, valid', block('[{"name":"a"},{"args":{}},{"name":"c"}]'), 1, '', [call('a'), call('c')]),
  bad('all three items invalid', block('[null, "x", {"name":""}]'), 3),
  ok('"args" and "arguments" mixed across items', block('[{"name":"a","args":{"p":1}},{"name":"b","arguments":{"q":2}}]'), [
    call('a', { p: 1 }),
    call('b', { q: 2 }),
  ]),
  ok('list in a fence', block('```json\n[{"name":"a"},{"name":"b"}]\n```'), [call('a'), call('b')]),
  ok('pretty-printed list', block('[\n  {"name": "a"},\n  {"name": "b", "args": {"k": "v"}}\n]'), [call('a'), call('b', { k: 'v' })]),
  bad('null item among calls', block('[{"name":"a"}, null, {"name":"b"}]'), 1, '', [call('a'), call('b')]),
  bad('item with both argument keys', block('[{"name":"a","args":{},"arguments":{}},{"name":"b"}]'), 1, '', [call('b')]),
  ok(
    'fifty calls in one list',
    block(json(Array.from({ length: 50 }, (_, i) => ({ name: `t${i}`, args: { i } })))),
    Array.from({ length: 50 }, (_, i) => call(`t${i}`, { i })),
  ),
  ok('double-encoded args inside a list', block(json([{ name: 'a', args: json({ k: 1 }) }])), [call('a', { k: 1 })]),
];

// ── Broken JSON: one error per block, text outside untouched.
const brokenJson: CorpusCase[] = [
  bad('missing closing brace', `Checking. ${block('{"name":"a","args":{"q":"x"}')}`, 1, 'Checking. '),
  bad('extra closing brace', block('{"name":"a","args":{"q":"x"}}}'), 1),
  bad('trailing comma', block('{"name":"a",}'), 1),
  bad('single quotes', block("{'name': 'a', 'args': {'q': True}}"), 1),
  bad('unquoted keys', block('{name: "a", args: {}}'), 1),
  bad('comment after the JSON', block('{"name":"a"} // look it up'), 1),
  bad('two objects side by side', block('{"name":"a"}{"name":"b"}'), 1),
  bad('comma-separated objects without brackets', block('{"name":"a"}, {"name":"b"}'), 1),
  bad('function-call syntax', block('search("cats")'), 1),
  bad('prose inside the tags', block('call search with q=cats'), 1),
  bad('prose before the JSON inside the tags', block('Sure! {"name":"a"}'), 1),
  bad('prose after the JSON inside the tags', block('{"name":"a"} Let me know!'), 1),
  bad('NaN value', block('{"name":"a","args":{"n":NaN}}'), 1),
  bad('leading zero', block('{"name":"a","args":{"n":01}}'), 1),
  bad('undefined value', block('{"name":"a","args":{"q":undefined}}'), 1),
  bad('raw newline inside a string', block('{"name":"a","args":{"s":"line\nbreak"}}'), 1),
  bad('invalid escape sequence', block('{"name":"a","args":{"q":"\\x41"}}'), 1),
  bad('fence that never closes', block('```json\n{"name":"a"}'), 1),
  bad('tilde fence is not a Markdown fence we read', block('~~~json\n{"name":"a"}\n~~~'), 1),
  bad('broken block between text', `Before ${block('{"name":')} after`, 1, 'Before  after'),
];

// ── Empty payloads.
const empties: CorpusCase[] = [
  bad('empty block', block(''), 1),
  bad('whitespace-only block', block('   \n\t  '), 1),
  bad('empty json fence', block('```json\n```'), 1),
  bad('empty bare fence', block('``````'), 1),
];

export const corpusPartOne: CorpusCase[] = [...plainText, ...styledCalls, ...argumentForms, ...names, ...nonObjects, ...lists, ...brokenJson, ...empties];

// ── Close tags inside JSON strings do not end a block.
const closeInString: CorpusCase[] = [
  ok('close tag inside an argument string', block('{"name":"echo","args":{"text":"end with [/TOOL_CALL] please"}}'), [
    call('echo', { text: 'end with [/TOOL_CALL] please' }),
  ]),
  ok('two close tags inside strings', block('{"name":"echo","args":{"a":"[/TOOL_CALL]","b":"x[/TOOL_CALL]y"}}'), [
    call('echo', { a: '[/TOOL_CALL]', b: 'x[/TOOL_CALL]y' }),
  ]),
  ok('open tag inside an argument string', block('{"name":"echo","args":{"text":"[TOOL_CALL] nested"}}'), [call('echo', { text: '[TOOL_CALL] nested' })]),
  ok('escaped quotes around a close tag', block('{"name":"echo","args":{"text":"say \\"[/TOOL_CALL]\\" now"}}'), [
    call('echo', { text: 'say "[/TOOL_CALL]" now' }),
  ]),
  ok('escaped backslash right before the closing quote', block('{"name":"fs","args":{"path":"C:\\\\"}}'), [call('fs', { path: 'C:\\' })]),
  ok('escaped backslash then escaped quote then a close tag', block(json({ name: 'x', args: { s: 'a\\"[/TOOL_CALL]b' } })), [
    call('x', { s: 'a\\"[/TOOL_CALL]b' }),
  ]),
  ok('close tag in a key', block('{"name":"x","args":{"[/TOOL_CALL]":1}}'), [call('x', { '[/TOOL_CALL]': 1 })]),
  ok('close tag in the name', block('{"name":"odd[/TOOL_CALL]name"}'), [call('odd[/TOOL_CALL]name')]),
  ok('unicode-escaped close tag', block('{"name":"echo","args":{"t":"\\u005B/TOOL_CALL]"}}'), [call('echo', { t: '[/TOOL_CALL]' })]),
  ok(
    'close tag inside a string, then text after the block',
    `a${block('{"name":"n","args":{"s":"[/TOOL_CALL]"}}')}b`,
    [call('n', { s: '[/TOOL_CALL]' })],
    'ab',
  ),
];

// ── A string never closes: the block is cut at the first literal close tag.
const fallback: CorpusCase[] = [
  bad('unterminated string, close tag, text after', `${O}{"name":"a","args":{"q":"x}${C} after`, 1, ' after'),
  bad('unterminated string with nothing after the close tag', `${O}{"name":"a","args":{"q":"x}${C}`, 1),
  bad('stray quote before the close tag', `${O}{"name":"a"}"${C} tail`, 1, ' tail'),
  bad('broken block then a valid one', `${O}{"name":"a","args":{"q":"x}${C} mid ${O}{"name":"b","args":{}}${C} end`, 1, ' mid  end', [call('b')]),
  bad('broken block, two valid ones after', `${O}{"name":"a","args":{"q":"x}${C}1${block('{"name":"b"}')}2${block('{"name":"c"}')}3`, 1, '123', [
    call('b'),
    call('c'),
  ]),
  bad('unterminated string and two literal close tags', `${O}{"name":"a","args":{"q":"x}${C} one ${C} two`, 1, ` one ${C} two`),
  bad('quote in text after a cut block starts no string', `${O}"${C} say "hi" ${block('{"name":"b"}')}`, 1, ' say "hi" ', [call('b')]),
  bad('every close tag inside a string, three times', `${O} "${C}" `.repeat(3), 3, '" '.repeat(3)),
  bad('unterminated string and no close tag at all', `Hi ${O}{"name":"a","args":{"q":"never closed}}`, 1, 'Hi '),
];

// ── Blocks that never close: the rest of the reply is one error, not text.
const unclosed: CorpusCase[] = [
  bad('truncated mid-JSON', 'Let me check. [TOOL_CALL]{"name":"search","args":{"q":"wea', 1, 'Let me check. '),
  bad('open tag alone', O, 1),
  bad('open tag at the very end', 'Calling now: [TOOL_CALL]', 1, 'Calling now: '),
  bad('complete JSON but no close tag', 'text [TOOL_CALL]{"name":"a"}', 1, 'text '),
  bad('close tag cut short', `${O}{"name":"a"}[/TOOL_CAL`, 1),
  bad('close tag missing its last bracket', `${O}{"name":"a"}[/TOOL_CALL`, 1),
  bad('valid call then a truncated one', `${block('{"name":"a"}')} and ${O}{"name":"b","args":{`, 1, ' and ', [call('a')]),
  bad('unclosed block swallows later look-alike tags', `${O}{"name":"a"} then [tool_call] and <tool_call>`, 1),
  bad('markdown link whose text is the open tag', '[TOOL_CALL](https://example.com/docs)', 1),
];

// ── Nested and doubled tags: an open tag inside a block is payload text.
const nested: CorpusCase[] = [
  bad('block nested in a block', `${O}${O}{"name":"a"}${C}${C}`, 1, C),
  bad('second open tag before the first close', `${O}{"name":"a","args":{}}${O}{"name":"b"}${C}`, 1),
  bad('doubled opening bracket', '[[TOOL_CALL]]', 1, '['),
  bad('empty block from adjacent tags', `${O}${C}`, 1),
  bad('extra bracket after the open tag', `${O}]{"name":"a"}${C}`, 1),
  ok('brackets around a whole block', `[${block('{"name":"a"}')}]`, [call('a')], '[]'),
  bad('block nested three deep', `${O}${O}${O}{"name":"a"}${C}${C}${C}`, 1, C + C),
];

// ── Several blocks, with text between them.
const multiple: CorpusCase[] = [
  ok('two calls with text between', `A ${block('{"name":"a"}')} B ${block('{"name":"b"}')} C`, [call('a'), call('b')], 'A  B  C'),
  ok('adjacent blocks', block('{"name":"a"}') + block('{"name":"b"}'), [call('a'), call('b')]),
  bad('middle block broken', `${block('{"name":"a"}')}\n${block('{"name":')}\n${block('{"name":"c"}')}`, 1, '\n\n', [call('a'), call('c')]),
  ok('thinking text around a call', `Thinking...\n\n${block('{"name":"a"}')}\n\nDone.`, [call('a')], 'Thinking...\n\n\n\nDone.'),
  ok('list block then single block', `${block('[{"name":"a"},{"name":"b"}]')}+${block('{"name":"c"}')}`, [call('a'), call('b'), call('c')], '+'),
  bad('stray close tag between calls stays text', `${block('{"name":"a"}')} ${C} ${block('{"name":"b"}')}`, 0, ` ${C} `, [call('a'), call('b')]),
  ok('same tool twice', `${block('{"name":"a","args":{"n":1}}')}${block('{"name":"a","args":{"n":2}}')}`, [call('a', { n: 1 }), call('a', { n: 2 })]),
];

// ── Hermes tags.
const hermes: CorpusCase[] = [
  ok(
    'hermes call with "arguments"',
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    [call('get_weather', { city: 'Paris' })],
    '',
    HERMES,
  ),
  ok(
    'two hermes blocks on separate lines',
    '<tool_call>\n{"name": "a"}\n</tool_call>\n<tool_call>\n{"name": "b"}\n</tool_call>',
    [call('a'), call('b')],
    '\n',
    HERMES,
  ),
  ok(
    'hermes close tag inside a string',
    '<tool_call>{"name":"html","args":{"s":"</tool_call>"}}</tool_call>',
    [call('html', { s: '</tool_call>' })],
    '',
    HERMES,
  ),
  bad('hermes block never closed', 'ok <tool_call>{"name":"a"', 1, 'ok ', [], HERMES),
  ok('hermes list', '<tool_call>[{"name":"a"},{"name":"b"}]</tool_call>', [call('a'), call('b')], '', HERMES),
  bad('hermes broken JSON', '<tool_call>{name: a}</tool_call> sorry', 1, ' sorry', [], HERMES),
  ok(
    'hermes call after think tags',
    '<think>\nneed weather\n</think>\n<tool_call>\n{"name": "w"}\n</tool_call>',
    [call('w')],
    '<think>\nneed weather\n</think>\n',
    HERMES,
  ),
  ok('hermes fenced payload', '<tool_call>\n```json\n{"name": "a", "args": {"k": [1]}}\n```\n</tool_call>', [call('a', { k: [1] })], '', HERMES),
];

// ── Custom tags.
const custom: CorpusCase[] = [
  ok('double angle tags', '<<call>>{"name":"a"}<</call>>', [call('a')], '', { open: '<<call>>', close: '<</call>>' }),
  ok('word tags with text around', 'x BEGIN_CALL {"name":"a"} END_CALL y', [call('a')], 'x  y', { open: 'BEGIN_CALL', close: 'END_CALL' }),
  ok('unicode bracket tags', '⟦call⟧{"name":"a"}⟦/call⟧', [call('a')], '', { open: '⟦call⟧', close: '⟦/call⟧' }),
  ok('emoji tags', 'go 🛠️{"name":"a"}✅ ok', [call('a')], 'go  ok', { open: '🛠️', close: '✅' }),
  ok('open tag found after a repeated prefix', '<<<<call>>>{"name":"a"}<<</call>>>>', [call('a')], '<>', { open: '<<<call>>>', close: '<<</call>>>' }),
  ok('open tag that overlaps itself', 'aaab{"name":"x"}aac', [call('x')], 'a', { open: 'aab', close: 'aac' }),
  ok('close tag whose first characters repeat', '<c>{"name":"a"}   END', [call('a')], '', { open: '<c>', close: '  END' }),
  ok('close tag that starts with the open tag', '@@{"name":"a"}@@end', [call('a')], '', { open: '@@', close: '@@end' }),
  textOnly('default tags are text under custom tags', block('{"name":"a"}'), { open: '<<call>>', close: '<</call>>' }),
  ok('custom close tag inside a string', '<<call>>{"name":"a","args":{"s":"<</call>>"}}<</call>>', [call('a', { s: '<</call>>' })], '', {
    open: '<<call>>',
    close: '<</call>>',
  }),
];

// ── Unicode in text, names and arguments.
const unicode: CorpusCase[] = [
  ok('emoji text around a call', `🔍 ${block('{"name":"search","args":{"q":"🐱"}}')} 🎉`, [call('search', { q: '🐱' })], '🔍  🎉'),
  ok('CJK text and arguments', `我来查一下。${block('{"name":"天气","args":{"城市":"北京"}}')}好的。`, [call('天气', { 城市: '北京' })], '我来查一下。好的。'),
  ok('RTL text and arguments', `سأبحث ${block('{"name":"search","args":{"q":"שלום"}}')} تم`, [call('search', { q: 'שלום' })], 'سأبحث  تم'),
  ok('surrogate pairs as JSON escapes', block('{"name":"e","args":{"s":"\\ud83d\\ude00"}}'), [call('e', { s: '😀' })]),
  ok('ZWJ emoji sequence argument', block(json({ name: 'e', args: { s: '👩‍💻🧑🏿‍🚀' } })), [call('e', { s: '👩‍💻🧑🏿‍🚀' })]),
  ok('combining marks in arguments', block(json({ name: 'e', args: { s: 'Zalgo: Z\u0351\u036b\u0343a\u0344l' } })), [
    call('e', { s: 'Zalgo: Z\u0351\u036b\u0343a\u0344l' }),
  ]),
  ok('byte-order mark before the JSON counts as whitespace', block('\ufeff{"name":"a"}'), [call('a')]),
  ok('non-breaking spaces around the JSON', block('\u00a0{"name":"a"}\u00a0'), [call('a')]),
];

// ── Whitespace.
const whitespace: CorpusCase[] = [
  ok('CRLF line endings', `Hi\r\n${block('\r\n{"name":"a",\r\n"args":{}}\r\n')}\r\nBye`, [call('a')], 'Hi\r\n\r\nBye'),
  ok('tabs around the JSON', block('\t\t{"name":"a"}\t'), [call('a')]),
  ok('text whitespace kept exactly', `  ${block('{"name":"a"}')}  `, [call('a')], '    '),
  ok('fence surrounded by blank lines', block('\n\n```json\n{"name":"a"}\n```\n\n'), [call('a')]),
  ok('whitespace between JSON tokens', block('{ "name" :\n "a" ,\n "args" : { } }'), [call('a')]),
];

// ── Fences.
const fences: CorpusCase[] = [
  ok('uppercase JSON fence', block('```JSON\n{"name":"a"}\n```'), [call('a')]),
  ok('json5 info string', block('```json5\n{"name":"a"}\n```'), [call('a')]),
  ok('single-line fence', block('```{"name":"a"}```'), [call('a')]),
  ok('info string glued to the JSON', block('```json{"name":"a"}```'), [call('a')]),
  ok('tagged block inside a fence in the text', `\`\`\`\n${block('{"name":"a"}')}\n\`\`\``, [call('a')], '```\n\n```'),
  ok('fence with a list and args', block('```json\n[{"name":"a","args":{"x":"```"}}]\n```'), [call('a', { x: '```' })]),
];

// ── Large replies.
const big = 'x'.repeat(200_000);
const manyTags = C.repeat(17_000);
const deep = Array.from({ length: 400 }).reduce<Record<string, unknown>>((inner) => ({ d: inner }), { leaf: true });
const ticks = Array.from({ length: 1000 }, (_, i) => i);
const huge: CorpusCase[] = [
  ok('200 KB string argument', block(json({ name: 'write', args: { body: big } })), [call('write', { body: big })]),
  ok('200 KB of close tags inside a string', block(json({ name: 'echo', args: { s: manyTags } })), [call('echo', { s: manyTags })]),
  textOnly('200 KB of plain text', `${big}\n`.repeat(2)),
  textOnly('200 KB of open brackets', '['.repeat(200_000)),
  textOnly('200 KB of almost-tags', '[TOOL_CAL'.repeat(25_000)),
  ok(
    '1000 blocks with text between',
    ticks.map((i) => `step ${i} ${block(json({ name: 'tick', args: { i } }))}`).join(''),
    ticks.map((i) => call('tick', { i })),
    ticks.map((i) => `step ${i} `).join(''),
  ),
  ok(
    'list of 1000 calls',
    block(json(ticks.map((i) => ({ name: 'tick', args: { i } })))),
    ticks.map((i) => call('tick', { i })),
  ),
  ok('arguments nested 400 deep', block(json({ name: 'deep', args: deep })), [call('deep', deep)]),
  ok('200 KB of escaped quotes', block(json({ name: 'q', args: { s: 'a"'.repeat(100_000) } })), [call('q', { s: 'a"'.repeat(100_000) })]),
  bad('200 KB broken JSON', block(`{"name":"a","args":{"s":"${big}"`), 1),
  bad('200 KB truncated reply', `${O}{"name":"a","args":{"s":"${big}`, 1),
  bad('2000 blocks whose close tags all sit in strings', `${O} "${C}" `.repeat(2000), 2000, '" '.repeat(2000)),
];

export const corpusPartTwo: CorpusCase[] = [
  ...closeInString,
  ...fallback,
  ...unclosed,
  ...nested,
  ...multiple,
  ...hermes,
  ...custom,
  ...unicode,
  ...whitespace,
  ...fences,
  ...huge,
];

/** The whole corpus. */
export const corpus: CorpusCase[] = [...corpusPartOne, ...corpusPartTwo];
