import { describeSandboxAttacks } from '../contract/codemode-sandbox.js';

describeSandboxAttacks('Node, in-process', 'in-process');
