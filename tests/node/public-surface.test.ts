// The root entry holds what an app calls, and stays small enough to hold in one's head: at most 150
// names (issue "The core, smaller"). What an author of an extension, an engine, a store or a parser
// needs is in `ambi-web/extend`; every name that left the root is still exported from an entry.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_ROOT_NAMES = 150;

/** The names an entry file exports, read from its `export { … } from` statements (an `export *` would hide them: refused). */
function exportedNames(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${path}: an export * hides what it exports`);
    for (const element of clause.elements) names.push(element.name.text);
  }
  return names;
}

describe('the public surface', () => {
  const root = exportedNames('src/index.ts');

  it(`the root entry (ambi-web) exports at most ${MAX_ROOT_NAMES} names, each once`, () => {
    expect(new Set(root).size).toBe(root.length);
    expect(root.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
  });

  it('ambi-web/extend holds the extension point, the call pipeline, the engine and store contracts', () => {
    const extend = new Set(exportedNames('src/extend/index.ts'));
    for (const name of [
      'RunExtension',
      'RunStart',
      'TurnRequest',
      'TurnEnd',
      'RunView',
      'RunCall',
      'CallVerdict',
      'ExtensionLoader',
      'RunSetup',
      'Engine',
      'EngineEvent',
      'EngineRequest',
      'ConversationStore',
      'ToolCallJournal',
      'HeldValueStore',
      'ParseResult',
    ])
      expect(extend.has(name), name).toBe(true);
  });

  it('the root keeps every name an app calls in the architecture contract', () => {
    const names = new Set(root);
    const contract = [
      'defineTool',
      'ToolError',
      'ToolRegistry',
      'ToolManager',
      'DuplicateToolError',
      'TagToolCallParser',
      'openAICompatible',
      'localModel',
      'scriptedEngine',
      'replayEngine',
      'promptApiEngine',
      'languageModelEngine',
      'Agent',
      'ChatRunner',
      'ConcurrencyBudget',
      'MaxIterationsError',
      'IndexedDbSnapshotStore',
      'MemorySnapshotStore',
      'createWorkerRunner',
      'WorkerRunner',
      'exposeTools',
      'serveRunner',
      'mcpServer',
      'browserOAuth',
      'webMcpAvailable',
      'offerWebMcpTools',
      'listWebMcpTools',
      'exposeTabTools',
      'ambiChatTransport',
      'toAgUiEvents',
      'withParts',
      'isAmbiError',
      'Tool',
      'ToolCall',
      'ToolResult',
      'RunEvent',
      'RunResult',
      'Run',
      'RunOptions',
      'RunExtension',
      'Engine',
      'Cassette',
      'LeafSnapshot',
      'SnapshotStore',
      'McpConnection',
      'McpServerConfig',
      'ToolCallParser',
      'ToolMessage',
      'UserMessage',
      'Quarantine',
      'AgentOptions',
    ];
    expect(contract.filter((name) => !names.has(name))).toEqual([]);
  });
});
