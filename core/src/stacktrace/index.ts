export type { StackFrame } from './stack-frame';
export { MAX_FRAMES, MAX_LINE_CHARS, isInAppFilename, parseStack } from './parse-stack';
