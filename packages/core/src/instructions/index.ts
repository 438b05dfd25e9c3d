export {
  compileInstruction,
  identityInstruction,
  outputSchemaInstruction,
  type CompiledInstruction,
  type InstructionSection,
  type InstructionSectionKind,
  type InstructionSources,
  type InstructionText,
} from './compile-instruction';
export { renderTemplate, type TemplateSources } from './template';
export {
  TRANSFER_TO_AGENT_TOOL_NAME,
  transferInstruction,
  type TransferRelation,
  type TransferTarget,
} from './transfer-instruction';
