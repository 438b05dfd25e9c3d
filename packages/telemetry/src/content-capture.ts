import type { LlmRequest } from '@adk/core';

/**
 * Whether request/response content goes into spans: the explicit option wins; otherwise
 * `ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS` or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
 * set to `true`/`1`. Off by default: prompts often hold personal data.
 */
export function resolveCaptureContent(
  option: boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (option !== undefined) return option;
  const value =
    env.ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS ??
    env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
  return value !== undefined && ['true', '1'].includes(value.trim().toLowerCase());
}

/** JSON of a value, or a marker when it cannot be serialised (cycles, BigInt). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"<not serializable>"';
  }
}

/** The request as recorded on a span: inline bytes and the response schema left out. */
export function requestForSpan(request: LlmRequest): unknown {
  const { responseSchema: _schema, ...config } = request.config;
  return {
    model: request.model,
    systemInstruction: request.systemInstruction,
    config,
    contents: request.contents.map((content) => ({
      role: content.role,
      parts: content.parts.map((part) =>
        part.inlineData
          ? {
              inlineData: {
                mimeType: part.inlineData.mimeType,
                omittedBytes: Math.floor((part.inlineData.data.length * 3) / 4),
              },
            }
          : part,
      ),
    })),
  };
}
