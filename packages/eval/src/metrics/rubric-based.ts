import type { Invocation, Rubric, RubricScore } from '../schema';
import {
  statusOf,
  type EvaluateInput,
  type EvaluationResult,
  type MetricDefinition,
  type PerInvocationResult,
} from './evaluator';
import { judgeOptionsOf, sampleJudge } from './judge-call';

/** One rubric's verdict as the judge wrote it. */
export interface RubricVerdict {
  rubricId?: string;
  propertyText: string;
  rationale: string;
  /** 1 for yes, 0 for no, undefined when the verdict says neither. */
  score?: number;
}

/**
 * Read the judge's answer: for each rubric an optional `ID: ...` line, a `Property: ...` line, a
 * `Rationale: ...` and a `Verdict: yes|no`. An answer whose counts disagree is rejected entirely
 * (an empty list), so a skipped rubric cannot inflate the score.
 */
export function parseRubricVerdicts(text: string): RubricVerdict[] {
  const properties = [...text.matchAll(/^\s*Property: (.*)$/gm)];
  const ids = [...text.matchAll(/^\s*ID: (.*)$/gm)];
  const rationales = [...text.matchAll(/Rationale: (.*)/g)].map((m) => m[1]!);
  const verdicts = [...text.matchAll(/Verdict: (.*)/g)].map((m) => {
    const verdict = m[1]!.toLowerCase();
    return verdict.includes('yes') ? 1 : verdict.includes('no') ? 0 : undefined;
  });
  if (properties.length !== rationales.length || properties.length !== verdicts.length) return [];
  return properties.map((property, i) => {
    const previous = i > 0 ? properties[i - 1]!.index : -1;
    const id = ids
      .filter((m) => m.index > previous && m.index < property.index)
      .at(-1)?.[1]
      ?.trim();
    const score = verdicts[i];
    return {
      ...(id ? { rubricId: id } : {}),
      propertyText: property[1]!.trim(),
      rationale: rationales[i]!.trim(),
      ...(score === undefined ? {} : { score }),
    };
  });
}

/** Normalise rubric text for matching the judge's echo of it (quotes, markdown, case, spaces). */
export function normalizeRubricText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s*_`#>\-\u2022"']+|[\s*_`#>\-\u2022"']+$/g, '')
    .toLowerCase();
}

/** Mean of the scores given (undefined when none is). */
export function averageRubricScore(scores: readonly RubricScore[]): number | undefined {
  const given = scores.filter((s) => s.score !== undefined);
  return given.length === 0
    ? undefined
    : given.reduce((sum, s) => sum + s.score!, 0) / given.length;
}

function majorityPerRubric(samples: RubricScore[][]): RubricScore[] {
  const byId = new Map<string, { none: RubricScore[]; yes: RubricScore[]; no: RubricScore[] }>();
  for (const sample of samples) {
    for (const score of sample) {
      const bucket = byId.get(score.rubricId) ?? { none: [], yes: [], no: [] };
      byId.set(score.rubricId, bucket);
      (score.score === undefined ? bucket.none : score.score === 1 ? bucket.yes : bucket.no).push(
        score,
      );
    }
  }
  return [...byId.values()].map(({ none, yes, no }) =>
    yes.length === 0 && no.length === 0 ? none[0]! : yes.length > no.length ? yes[0]! : no[0]!,
  );
}

/** How a rubric metric builds its judge prompt for one invocation. */
export interface RubricPromptInput {
  actual: Invocation;
  expected?: Invocation;
  rubrics: readonly Rubric[];
}

/**
 * Build a rubric-based metric: the judge answers yes or no for each rubric (from the criterion,
 * the invocation and the case, those of `rubricType` only), samples are combined per rubric by
 * majority vote, an invocation scores the fraction of rubrics met, and the case scores the mean
 * of every rubric verdict over its invocations.
 */
export function createRubricMetric(options: {
  metricName: string;
  description: string;
  rubricType: string;
  prompt(input: RubricPromptInput): string;
}): MetricDefinition {
  return {
    metricName: options.metricName,
    description: options.description,
    create(metric, context) {
      const judge = judgeOptionsOf(metric);
      const ofType = (rubrics: readonly Rubric[] | undefined) =>
        (rubrics ?? []).filter((r) => r.type === undefined || r.type === options.rubricType);
      return {
        async evaluate(input: EvaluateInput): Promise<EvaluationResult> {
          const results: PerInvocationResult[] = await Promise.all(
            input.actual.map(async (actual, i) => {
              const expected = input.expected?.[i];
              const rubrics = new Map<string, Rubric>();
              for (const rubric of [
                ...(metric.criterion?.rubrics ?? []),
                ...ofType(input.evalCase.rubrics),
                ...ofType(expected?.rubrics ?? actual.rubrics),
              ]) {
                rubrics.set(rubric.rubricId, rubric);
              }
              if (rubrics.size === 0) {
                return { actualInvocation: actual, evalStatus: 3 as const };
              }
              const list = [...rubrics.values()];
              const byText = new Map(
                list.map((r) => [
                  normalizeRubricText(r.rubricContent.textProperty ?? ''),
                  r.rubricId,
                ]),
              );
              const answers = await sampleJudge(
                context,
                judge,
                options.prompt({ actual, ...(expected ? { expected } : {}), rubrics: list }),
                input.signal,
              );
              const samples = answers.map((answer) =>
                parseRubricVerdicts(answer).flatMap((verdict): RubricScore[] => {
                  const id =
                    (verdict.rubricId && rubrics.has(verdict.rubricId)
                      ? verdict.rubricId
                      : undefined) ?? byText.get(normalizeRubricText(verdict.propertyText));
                  if (id === undefined) return [];
                  return [
                    {
                      rubricId: id,
                      rationale: verdict.rationale,
                      ...(verdict.score === undefined ? {} : { score: verdict.score }),
                    },
                  ];
                }),
              );
              const rubricScores = majorityPerRubric(samples);
              const score = averageRubricScore(rubricScores);
              return {
                actualInvocation: actual,
                ...(expected ? { expectedInvocation: expected } : {}),
                ...(score === undefined ? {} : { score }),
                evalStatus: statusOf(score, metric.threshold),
                rubricScores,
              };
            }),
          );
          const all = results.flatMap((r) => r.rubricScores ?? []);
          const overallScore = averageRubricScore(all);
          const ids = [...new Set(all.map((s) => s.rubricId))];
          return {
            ...(overallScore === undefined ? {} : { overallScore }),
            overallEvalStatus: statusOf(overallScore, metric.threshold),
            perInvocationResults: results,
            overallRubricScores: ids.map((rubricId) => {
              const mean = averageRubricScore(all.filter((s) => s.rubricId === rubricId));
              return {
                rubricId,
                rationale: 'Mean of the verdicts of every invocation.',
                ...(mean === undefined ? {} : { score: mean }),
              };
            }),
          };
        },
      };
    },
  };
}
