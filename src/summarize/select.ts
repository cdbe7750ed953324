// Which summarizer a workspace uses. Offline extractive is the default and the fallback.
import type { HipoConfig } from '../config/config.js';
import type { TemplateSet } from '../write/template.js';
import type { ExclusionRules } from './exclusion.js';
import { ExtractiveSummarizer } from './extractive.js';
import type { Summarizer } from './summarizer.js';

export function summarizerFor(_config: HipoConfig, templates: TemplateSet, rules: ExclusionRules): Summarizer {
  return new ExtractiveSummarizer(templates, rules);
}
