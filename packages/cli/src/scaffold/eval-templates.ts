/**
 * The eval set of a new project (`npm run eval` = `adk eval . evals/time.evalset.json`) and its
 * criteria: the tool must be called with the right zone; the answer is compared loosely, since
 * the time it reads differs at every run.
 */
export const EVAL_FILES: Record<string, string> = {
  'evals/time.evalset.json': `${JSON.stringify(
    {
      eval_set_id: 'time',
      eval_cases: [
        {
          eval_id: 'tokyo',
          conversation: [
            {
              user_content: { role: 'user', parts: [{ text: 'What time is it in Tokyo?' }] },
              final_response: { role: 'model', parts: [{ text: 'It is 14:30:00 in Tokyo.' }] },
              intermediate_data: {
                tool_uses: [{ name: 'get_time', args: { timeZone: 'Asia/Tokyo' } }],
              },
            },
          ],
        },
      ],
    },
    null,
    2,
  )}\n`,
  'evals/test_config.json': `${JSON.stringify(
    { criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.3 } },
    null,
    2,
  )}\n`,
};
