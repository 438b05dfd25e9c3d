import type { ProviderErrorInfo } from './http-client-options';

/**
 * Reads the error JSON shapes of the common providers: Gemini `{error:{code,message,status}}`,
 * Anthropic `{type:'error',error:{type,message}}`, OpenAI `{error:{message,type,code}}`, plus the
 * flat `{message}` / `{error:"..."}` of many compatible servers (Ollama, vLLM, LiteLLM).
 */
export function defaultErrorParser(body: unknown): ProviderErrorInfo | undefined {
  if (Array.isArray(body)) return defaultErrorParser(body[0]);
  if (!isRecord(body)) return undefined;
  const error = body.error;
  if (typeof error === 'string') return { message: error };
  if (isRecord(error)) {
    const message = typeof error.message === 'string' ? error.message : undefined;
    const type =
      (typeof error.status === 'string' && error.status) ||
      (typeof error.type === 'string' && error.type) ||
      (typeof error.code === 'string' && error.code) ||
      undefined;
    return { message, type };
  }
  if (typeof body.message === 'string') {
    return { message: body.message, type: typeof body.type === 'string' ? body.type : undefined };
  }
  if (typeof body.detail === 'string') return { message: body.detail };
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
