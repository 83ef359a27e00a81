/** What the model is told, in `untrusted: 'hold'` mode, of the handles it reads and how to use them. */
export const HOLD_INSTRUCTIONS = [
  'Some tool results are held: instead of the result you get a handle such as {"held":"$1","from":"read_page","type":"string","length":1200}.',
  'You never see a held value. To pass one to a tool, put {"$held":"$1"} where the value goes in the arguments (at any depth).',
  'To learn something about it, call inspect_held with {"value":{"$held":"$1"},"instructions":"…","output":{…}}: give `output` a closed JSON Schema',
  '(booleans, numbers, enums, objects without other keys) to get the answer back; a free-text answer is held again, as a new handle.',
  'To show a held value to the user, write its id ($1) in your answer: the app shows the value there.',
].join(' ');
