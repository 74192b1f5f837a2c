export {
  countDeadLetters,
  countDeadLettersByStream,
  deadLetterSink,
  listDeadLetters,
  purgeDeadLetters,
  recordDeadLetters,
  replayDeadLetters,
} from './dead-letters';
export type { DeadLetter, DeadLetterInput, DeadLetterSink } from './dead-letters';
