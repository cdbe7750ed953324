// The catch-up worker: builds daily nodes' bodies ahead of the cycles that will write them,
// on the second core. Pure work: read a raw log, compute exactly what the main thread would.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { HipoConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import { readCapped } from '../tree/capped.js';
import { ExclusionRules } from '../summarize/exclusion.js';
import { ExtractiveSummarizer } from '../summarize/extractive.js';
import { redactorFor } from '../redact/workspace.js';
import { composeBody } from '../compose/body.js';
import { loadTemplates } from '../write/template.js';
import { dailyInputsFrom } from './inputs.js';
import type { PrefetchJob, PrefetchResult, PrefetchSetup } from './prefetch.js';

const setup = workerData as PrefetchSetup;
const config = setup.config as HipoConfig;
const rules = new ExclusionRules(config.compaction.ephemeralMarkers);
const redactor = redactorFor(config.redactPatterns);
const summarizer = new ExtractiveSummarizer(loadTemplates(setup.workspaceRoot), rules);

parentPort!.on('message', (job: PrefetchJob) => {
  void build(job.date).then((r) => parentPort!.postMessage(r));
});

async function build(date: LocalDate): Promise<PrefetchResult> {
  try {
    const { bytes, hash } = readCapped(join(setup.memoryDir, `${date}.md`), config.maxFileBytes);
    const inputs = dailyInputsFrom(date, bytes, hash, `${setup.memoryName}/${date}.md`, redactor, rules);
    const composed = await composeBody({ period: { level: 'daily', date }, lines: inputs.lines, threshold: config.compaction.thresholds.daily, bytes: inputs.bytes, thresholdBytes: config.compaction.thresholdBytes.daily, sources: inputs.sources, topics: inputs.topics, today: setup.today, sourceHash: hash }, summarizer);
    return { date, hash, inputs: { ...inputs, sources: [] }, composed };
  } catch (err) {
    return { date, error: err instanceof Error ? err.message : String(err) };
  }
}
