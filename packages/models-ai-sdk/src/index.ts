export { aiSdkModel, type AiSdkModelOptions } from './ai-sdk-model';
export type { AiSdkLanguageModel } from './spec-types';
