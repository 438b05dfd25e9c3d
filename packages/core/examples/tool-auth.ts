import {
  credentialResponse,
  FunctionTool,
  getText,
  LlmAgent,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  Runner,
  userContent,
  type AuthConfig,
  type CredentialRequestArgs,
  type Event,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';

// What the calendar API expects: a bearer token, saved under the key "calendar".
const calendarAuth: AuthConfig = {
  authScheme: { type: 'http', scheme: 'bearer' },
  credentialKey: 'calendar',
};

const listEvents = new FunctionTool({
  name: 'list_events',
  description: "List the user's calendar events.",
  execute: async (_args, ctx) => {
    const credential = await ctx.getCredential(calendarAuth);
    if (!credential) {
      ctx.requestCredential(calendarAuth); // the run pauses after this call
      return { status: 'Waiting for the user to sign in.' };
    }
    const token = credential.http?.credentials.token ?? '';
    return { events: ['10:00 standup'], tokenUsed: `${token.slice(0, 3)}…` };
  },
});

const model = new FakeModel({
  responses: (request) =>
    request.contents.at(-1)?.parts[0]?.text !== undefined
      ? { functionCalls: [{ name: 'list_events', args: {} }] }
      : `Your day: ${JSON.stringify(request.contents.at(-1)?.parts[0]?.functionResponse?.response)}`,
});
const agent = new LlmAgent({ name: 'assistant', model, tools: [listEvents] });
const runner = new Runner({ appName: 'calendar', agent, autoCreateSession: true });

async function turn(newMessage: Parameters<Runner['run']>[0]['newMessage']): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) {
    events.push(event);
  }
  return events;
}

// Turn 1: the tool asks for a credential; the run ends with adk_request_credential.
const first = await turn(userContent("What's on my calendar?"));
const request = first.at(-1)?.content?.parts[0]?.functionCall;
if (request?.name !== REQUEST_CREDENTIAL_FUNCTION_NAME) {
  console.error('The first turn did not ask for a credential.');
  process.exit(1);
}
const { authConfig } = request.args as unknown as CredentialRequestArgs;
console.log('asked for credential', authConfig.credentialKey);

// The client signs the user in (here: a token it already has) and answers the request.
const token = 'tok-123';
const second = await turn(
  credentialResponse(request.id!, {
    ...authConfig,
    exchangedAuthCredential: {
      authType: 'http',
      http: { scheme: 'bearer', credentials: { token } },
    },
  }),
);
console.log(getText(second.at(-1)?.content));

// Later turns find the saved credential without asking again.
const third = await turn(userContent('And now?'));
console.log(getText(third.at(-1)?.content));
