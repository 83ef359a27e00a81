import { describeToolCore } from '../contract/tool-core.js';

describeToolCore('node');
