/** Shared by the examples: run one turn and print what the workflow did. */
import {
  getText,
  InMemorySessionService,
  Runner,
  userContent,
  type BaseAgent,
  type Content,
} from '@adk/core';
import { workflowRecordOf } from '@adk/workflow';

const services = new Map<BaseAgent, Runner>();

/** Run `message` through `agent` (one session per agent) and print each node's output. */
export async function runTurn(agent: BaseAgent, message: string | Content): Promise<unknown> {
  let runner = services.get(agent);
  if (!runner) {
    runner = new Runner({
      appName: 'examples',
      agent,
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    services.set(agent, runner);
  }
  const newMessage = typeof message === 'string' ? userContent(message) : message;
  let output: unknown;
  for await (const event of runner.run({ userId: 'me', sessionId: 'example', newMessage })) {
    const record = workflowRecordOf(event);
    if (record?.kind === 'output')
      console.log(
        `  ${record.path} -> ${JSON.stringify(record.output)}${record.route ? ` (route ${record.route})` : ''}`,
      );
    else if (record?.kind === 'end') output = record.output;
    else if (!record && event.content)
      console.log(
        `  [${event.author}] ${getText(event.content) || JSON.stringify(event.content.parts)}`,
      );
    else if (record?.kind === 'interrupt')
      console.log(
        `  ${record.path} waits for ${record.requestIds.join(', ') || 'the next message'}`,
      );
  }
  console.log(`  output: ${JSON.stringify(output)}`);
  return output;
}
