import { compileWasmCompactly } from '@platform/db';
import { startService } from '@platform/http';
import { buildApp } from './app';
import { loadConfig } from './config';

compileWasmCompactly();
startService('workspace-api', () => loadConfig(), buildApp);
