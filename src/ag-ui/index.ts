// The entry `ambi-web/ag-ui`: a run's events as AG-UI 1.0 events, for AG-UI front ends (CopilotKit and others).
// An entry of its own so a page on `ambi-web/worker` takes it without the root entry's module graph;
// it needs nothing of AG-UI's packages at run time. Everything here is also exported from `src/index.ts`.
export { toAgUiEvents, type AgUiEventsOptions, type AgUiRun } from './to-ag-ui-events.js';
export { fromAgUiContent, type AgUiContentPart, type AgUiPartSource } from './input.js';
export { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiEventBase, type AgUiInterrupt, type AgUiResumeEntry, type AgUiRunOutcome } from './events.js';
