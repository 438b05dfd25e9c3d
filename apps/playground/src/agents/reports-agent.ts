import { LlmAgent } from '@adk/core';
import type { Model } from '@adk/core';

import { publishReportTool, writeReportTool } from '../tools';

/**
 * Shows artifacts and human approval: `write_report` saves a Markdown artifact, and
 * `publish_report` runs only after a human approves the call in the chat.
 */
export function createReportsAgent(model: string | Model): LlmAgent {
  return new LlmAgent({
    name: 'reports',
    description: 'Writes reports as artifacts and publishes them after human approval',
    model,
    instruction:
      'You write short reports with write_report (saved as artifacts) and publish them with publish_report, which a human must approve. Tell the user the file name.',
    tools: [writeReportTool, publishReportTool],
  });
}
