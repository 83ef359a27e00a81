// The program's side of the bridge, run inside QuickJS before the program. It is a function
// expression the host calls with its two host functions, so neither is a global: the program
// reaches the host only through `tools` and `console`. Every intrinsic it uses is taken before
// the program runs, so a program that rewrites `JSON`, `Promise` or `WeakMap` changes nothing
// here. Values cross as JSON text only; an opaque value crosses as `{ [token]: index }`, a key
// the program never sees, which the host turns back into the value's ref.

/** File names QuickJS puts in stack frames: a program's error line is read from frames of PROGRAM_FILE only. */
export const PRELUDE_FILE = 'prelude.js';
export const PROGRAM_FILE = 'program.js';

/**
 * The prelude: `(hostCall, hostLog, setup) => run`, where `setup` is JSON text of
 * `{ token, names, maxChars }` and `run(program)` settles with the JSON text of
 * `{ ok: true, result }` (the result's JSON, cut to `maxChars`) or `{ ok: false, name, message, stack }`.
 * `hostCall(name, argsJson, settle)` calls `settle(kind, a, b)` later: kind 0 = JSON text `a`,
 * 1 = opaque value number `a` labelled `b`, 2 = failure with code `a` and message `b`.
 */
export const GUEST_PRELUDE = `(function (hostCall, hostLog, setupJson) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const StringCtor = String;
  const isArray = Array.isArray;
  const opaqueIndex = new WeakMap();
  const isOpaque = WeakMap.prototype.has.bind(opaqueIndex);
  const indexOf = WeakMap.prototype.get.bind(opaqueIndex);
  const remember = WeakMap.prototype.set.bind(opaqueIndex);
  const labels = new Map();
  const labelOf = Map.prototype.get.bind(labels);
  const setLabel = Map.prototype.set.bind(labels);
  const slice = Function.prototype.call.bind(String.prototype.slice);
  const join = Function.prototype.call.bind(Array.prototype.join);
  const setup = parse(setupJson);
  const token = setup.token;
  const maxChars = setup.maxChars;

  const toWire = function (key, value) {
    if (typeof value === 'object' && value !== null && isOpaque(value)) return { [token]: indexOf(value) };
    return value;
  };
  const forLog = function (key, value) {
    if (typeof value === 'object' && value !== null && isOpaque(value)) return labelOf(indexOf(value));
    if (typeof value === 'bigint') return StringCtor(value) + 'n';
    return value;
  };
  const cut = (text) => (text.length > maxChars ? slice(text, 0, maxChars) + '… [cut: ' + (text.length - maxChars) + ' more characters]' : text);
  const describe = (value) => {
    try {
      if (typeof value === 'string') return value;
      if (typeof value === 'object' && value !== null && isOpaque(value)) return labelOf(indexOf(value));
      if (typeof value === 'function') return '[function ' + (value.name || 'anonymous') + ']';
      if (typeof value === 'object' && value !== null && value instanceof ErrorCtor) return StringCtor(value);
      const text = stringify(value, forLog);
      return text === undefined ? StringCtor(value) : text;
    } catch (error) {
      try { return StringCtor(value); } catch (again) { return '[a value that cannot be shown]'; }
    }
  };
  const failure = (code, message) => {
    const error = new ErrorCtor(message);
    defineProperty(error, 'code', { value: code, writable: true, configurable: true, enumerable: true });
    return error;
  };
  const opaque = (index, label) => {
    const value = freeze(create(null));
    remember(value, index);
    setLabel(index, label);
    return value;
  };

  const callTool = (name, args) => new PromiseCtor((resolve, reject) => {
    let json;
    try {
      json = stringify(args === undefined ? {} : args, toWire);
    } catch (error) {
      reject(failure('invalid_arguments', 'The arguments of tools[' + stringify(name) + '] are not JSON: ' + describe(error)));
      return;
    }
    if (json === undefined) json = '{}';
    hostCall(name, json, (kind, a, b) => {
      if (kind === 0) {
        try { resolve(parse(a)); } catch (error) { reject(error); }
      } else if (kind === 1) resolve(opaque(a, b));
      else reject(failure(a, b));
    });
  });

  const tools = create(null);
  for (const name of setup.names) {
    defineProperty(tools, name, { value: (args) => callTool(name, args), enumerable: true });
  }
  freeze(tools);
  const log = (...values) => {
    const parts = [];
    for (let i = 0; i < values.length; i++) parts[i] = describe(values[i]);
    hostLog(cut(join(parts, ' ')));
  };
  const console = freeze({ log, info: log, warn: log, error: log, debug: log });
  defineProperty(globalThis, 'tools', { value: tools, enumerable: false });
  defineProperty(globalThis, 'console', { value: console, enumerable: false, writable: true, configurable: true });

  return async (program) => {
    try {
      const value = await program();
      const json = stringify(value === undefined ? null : value, toWire);
      return stringify({ ok: true, result: cut(json === undefined ? 'null' : json), cut: json !== undefined && json.length > maxChars });
    } catch (error) {
      const isError = typeof error === 'object' && error !== null && error instanceof ErrorCtor;
      let stack = '';
      let line;
      try {
        if (isError && typeof error.stack === 'string') stack = error.stack;
        if (isError && typeof error.lineNumber === 'number') line = error.lineNumber;
      } catch (ignored) {}
      let name = 'Error';
      try { if (isError && typeof error.name === 'string') name = error.name; } catch (ignored) {}
      let message;
      try { message = isError ? StringCtor(error.message) : describe(error); } catch (ignored) { message = describe(error); }
      return stringify({ ok: false, name, message: cut(message), stack: slice(stack, 0, 2000), line, thrown: !isError });
    }
  };
})`;
