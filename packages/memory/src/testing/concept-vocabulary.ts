/**
 * The synonym groups of {@link conceptVector}: words of one group share a dimension, so phrases
 * that say the same thing in other words are close. Small on purpose (a test vocabulary, not a
 * language model); the words of the core memory conformance suite are kept out of it so that
 * word-based cases keep their meaning under semantic search.
 */
export const CONCEPT_GROUPS: readonly (readonly string[])[] = [
  ['billing', 'payment', 'payments', 'invoice', 'invoices', 'checkout', 'subscription', 'pay'],
  ['project', 'service', 'startup', 'product', 'codebase', 'application', 'building', 'build'],
  ['travel', 'flight', 'flights', 'vacation', 'holiday', 'journey', 'abroad', 'airport'],
  ['dog', 'dogs', 'puppy', 'cat', 'cats', 'kitten', 'pet', 'pets'],
  ['jogging', 'marathon', 'gym', 'workout', 'exercise', 'fitness', 'training', 'cardio'],
  ['vegetarian', 'vegan', 'meat', 'diet', 'food', 'meal', 'meals', 'dinner'],
  ['guitar', 'piano', 'music', 'song', 'songs', 'band', 'concert', 'violin'],
  ['sister', 'brother', 'mother', 'father', 'family', 'parents', 'daughter', 'son'],
  ['job', 'employer', 'career', 'office', 'colleague', 'colleagues', 'manager', 'salary'],
  ['doctor', 'medicine', 'illness', 'sick', 'hospital', 'health', 'allergy', 'allergic'],
  ['database', 'postgres', 'postgresql', 'sqlite', 'sql', 'storage', 'tables', 'schema'],
  ['coffee', 'espresso', 'latte', 'tea', 'caffeine', 'cappuccino', 'mug', 'barista'],
];

/** Words that carry no meaning of their own; ignored by {@link conceptVector}. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of to in on at by for with from about into over is are was were be ' +
    'been being am do does did have has had i me my mine you your yours he him his she her it ' +
    'its we our they them their this that these those what which who whom how when where why ' +
    'not no yes so too very can could would should will shall may might must just also than ' +
    'then there here all any some more most other such only own same up down out again once ' +
    'like likes liked noted please tell know think want wants get got make made'
  ).split(' '),
);
