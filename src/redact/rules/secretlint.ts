// The maintained base rule set: secretlint's recommended rules (the npm package
// @secretlint/secretlint-rule-preset-recommend, MIT), run through secretlint's rule-authoring
// API without secretlint's own runner, which is asynchronous. The preset registers each rule with
// `context.registerRule(rule)`; `rule.create(context, options)` returns handlers whose
// `file(source)` scans `source.content` and calls `context.report({ message, range })` for each
// finding before it returns. Running those handlers one after the other keeps hipo's redactor
// synchronous; test/redact/secretlint.test.ts holds the findings to what @secretlint/core's
// `lintSource` reports with the same configuration.
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';
import type {
  SecretLintCoreConfigRule,
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintRuleLocalizeMessages,
  SecretLintRuleReportHandler,
  SecretLintSourceCode,
  SecretLintSourceNodeLocation,
  SecretLintSourceNodePosition,
  SecretLintSourceNodeRange,
} from '@secretlint/types';

export const PRESET_ID = preset.meta.id;

/** hipo's settings for the preset's rules, in secretlint's configuration shape (`rules` of the preset). */
export const RULE_SETTINGS: readonly Omit<SecretLintCoreConfigRule, 'rule'>[] = [
  // A `secretlint-disable` comment in a note or a transcript does not keep a secret out of what
  // hipo writes or sends: hipo redacts whatever a comment says.
  { id: '@secretlint/secretlint-rule-filter-comments', disabled: true },
];

/**
 * Literals (lower case) that every finding of a rule contains, read off the rule's patterns in
 * the pinned version: a text holding none of them is not handed to the rule. A rule not listed
 * (one a newer preset adds) runs on every text.
 */
export const RULE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  '@secretlint/secretlint-rule-aws': ['secretaccess', 'secret_access'],
  // Reports only for a .json or .p12 file, never for hipo's texts; kept with a cheap keyword.
  '@secretlint/secretlint-rule-gcp': ['private_key'],
  '@secretlint/secretlint-rule-privatekey': ['private key'],
  '@secretlint/secretlint-rule-npm': ['npm_', '_authtoken', 'x-oauth-basic'],
  '@secretlint/secretlint-rule-basicauth': ['://'],
  '@secretlint/secretlint-rule-slack': ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', 'hooks.slack.com'],
  '@secretlint/secretlint-rule-sendgrid': ['sg.'],
  '@secretlint/secretlint-rule-shopify': ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  '@secretlint/secretlint-rule-stripe': ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
  '@secretlint/secretlint-rule-github': ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  '@secretlint/secretlint-rule-gitlab': ['glpat-'],
  '@secretlint/secretlint-rule-grafana': ['glc_', 'glsa_'],
  '@secretlint/secretlint-rule-openai': ['t3blbkfj'],
  '@secretlint/secretlint-rule-anthropic': ['sk-ant-api0'],
  '@secretlint/secretlint-rule-groq': ['gsk_'],
  '@secretlint/secretlint-rule-huggingface': ['hf_'],
  '@secretlint/secretlint-rule-linear': ['lin_api_'],
  '@secretlint/secretlint-rule-notion': ['ntn_'],
  '@secretlint/secretlint-rule-1password': ['ops_ey'],
  '@secretlint/secretlint-rule-database-connection-string': [
    'mongodb://',
    'mongodb+srv://',
    'mysql://',
    'mysqlx://',
    'postgres://',
    'postgresql://',
  ],
  '@secretlint/secretlint-rule-hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  '@secretlint/secretlint-rule-vercel': ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  '@secretlint/secretlint-rule-databricks': ['dapi'],
  '@secretlint/secretlint-rule-docker': ['dckr_pat_'],
  '@secretlint/secretlint-rule-figma': ['figd_'],
  '@secretlint/secretlint-rule-cloudflare': ['cfk_', 'cfut_', 'cfat_'],
  '@secretlint/secretlint-rule-tailscale': ['tskey-'],
};

/** What a rule reported. */
export interface SecretlintFinding {
  ruleId: string;
  messageId: string;
  range: SecretLintSourceNodeRange;
  /** The values the message names (`{ KEY: 'ghp_…' }`): where the secret is when the range is wider. */
  data: Record<string, unknown> | undefined;
}

export interface PresetRule {
  id: string;
  /** null: runs on every text. */
  keywords: readonly string[] | null;
  handler: SecretLintRuleReportHandler;
}

/** A text as a rule's `source`: markdown, with no file behind it. */
class TextSource implements SecretLintSourceCode {
  readonly hasBOM = false;
  readonly filePath = undefined;
  readonly physicalFilePath = undefined;
  readonly contentType = 'text' as const;
  readonly ext = '.md';
  private lineStarts: number[] | null = null;

  constructor(readonly content: string) {}

  getFilePath(): undefined {
    return undefined;
  }

  getPhysicalFilePath(): undefined {
    return undefined;
  }

  private starts(): number[] {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = this.content.indexOf('\n'); i !== -1; i = this.content.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    }
    return this.lineStarts;
  }

  /** Lines count from 1, columns from 0, as in secretlint. */
  indexToPosition(index: number): SecretLintSourceNodePosition {
    const starts = this.starts();
    let line = starts.length - 1;
    while (line > 0 && starts[line]! > index) line--;
    return { line: line + 1, column: index - starts[line]! };
  }

  positionToIndex(pos: SecretLintSourceNodePosition): number {
    return (this.starts()[pos.line - 1] ?? this.content.length) + pos.column;
  }

  rangeToLocation(range: SecretLintSourceNodeRange): SecretLintSourceNodeLocation {
    return { start: this.indexToPosition(range[0]), end: this.indexToPosition(range[1]) };
  }

  locationToRange(loc: SecretLintSourceNodeLocation): SecretLintSourceNodeRange {
    return [this.positionToIndex(loc.start), this.positionToIndex(loc.end)];
  }
}

/** secretlint's message translation, in English: the rule's message, its id and its data. */
function translator<T extends SecretLintRuleLocalizeMessages>(messages: T) {
  return (messageId: keyof T, props?: Record<string, unknown>) => {
    const handler = messages[messageId] as unknown;
    const en = typeof handler === 'function' ? handler : (handler as { en?: unknown } | undefined)?.en;
    if (typeof en !== 'function') throw new Error(`secretlint rule message "${String(messageId)}" has no English text`);
    return { message: String(en(props)), messageId: String(messageId), data: props };
  };
}

/** The preset's rules, each created once with hipo's settings; `run` scans a text with them. */
export class SecretlintRules {
  readonly rules: PresetRule[] = [];
  /** Where the rules' reports go while `run` scans a text. */
  private sink: SecretlintFinding[] = [];

  constructor() {
    preset.create(
      {
        sharedOptions: {},
        registerRule: <O>(rule: SecretLintRuleCreator<O>) => {
          const id = rule.meta.id;
          const setting = RULE_SETTINGS.find((s) => s.id === id);
          if (setting?.disabled) return;
          this.rules.push({
            id,
            keywords: RULE_KEYWORDS[id] ?? null,
            handler: rule.create(this.context(id), (setting?.options ?? {}) as O),
          });
        },
      },
      {},
    );
  }

  private context(ruleId: string): SecretLintRuleContext {
    return {
      sharedOptions: {},
      createTranslator: translator as SecretLintRuleContext['createTranslator'],
      report: ({ message, range }) => {
        this.sink.push({
          ruleId,
          messageId: message.messageId,
          range: [range[0], range[1]],
          data: message.data as Record<string, unknown> | undefined,
        });
      },
      // Only the comment filter asks to ignore a range, and hipo does not run it (RULE_SETTINGS).
      ignore: () => {},
    };
  }

  /** What the rules selected by `use` (by index in `rules`; all, by default) report on `text`. */
  run(text: string, use: (index: number) => boolean = () => true): SecretlintFinding[] {
    const found: SecretlintFinding[] = [];
    this.sink = found;
    const source = new TextSource(text);
    for (const [i, rule] of this.rules.entries()) {
      if (!rule.handler.file || !use(i)) continue;
      const done = rule.handler.file(source);
      // A rule that reads a file (.p12) answers later; hipo's texts have no file behind them.
      if (done) {
        done.catch(() => {});
        throw new Error(`secretlint rule ${rule.id} answered asynchronously: hipo runs rules synchronously`);
      }
    }
    return found;
  }
}
