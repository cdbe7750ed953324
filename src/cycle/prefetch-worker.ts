// The catch-up worker: builds daily nodes' bodies ahead of the cycles that will write them,
// on the second core. Pure work: read a raw log, compute exactly what the main thread would. A
// day the main thread has claimed meanwhile (prefetch.ts) is skipped.
import { parentPort, workerData } from 'node:worker_threads';
import type { HipoConfig } from '../config/config.js';
import { ExclusionRules } from '../summarize/exclusion.js';
import { ExtractiveSummarizer } from '../summarize/extractive.js';
import { redactorFor } from '../redact/workspace.js';
import { loadTemplates } from '../write/template.js';
import { buildDaily, type PrefetchJob, type PrefetchSetup } from './prefetch.js';

const setup = workerData as PrefetchSetup;
const config = setup.config as HipoConfig;
const rules = new ExclusionRules(config.compaction.ephemeralMarkers);
const redactor = redactorFor(config.redactPatterns);
const summarizer = new ExtractiveSummarizer(loadTemplates(setup.workspaceRoot), rules);
const claims = new Int32Array(setup.claims);
const FREE = 0;
const WORKER = 1;

parentPort!.on('message', (job: PrefetchJob) => {
  if (Atomics.compareExchange(claims, job.slot, FREE, WORKER) !== FREE) return;
  void buildDaily(setup, job.date, summarizer, redactor, rules).then((r) => parentPort!.postMessage(r));
});
