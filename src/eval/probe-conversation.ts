/**
 * The built-in probe conversation of the in-app memory check (V12): written for Loci (not
 * LoCoMo text), in English and Chinese, over four days, with its own evidence annotations. The
 * facts are spread out and later turns talk about other things, so finding them takes memory.
 */
import type { EpochMs } from '../core/units';
import type { EvalConversation, EvalQuestion, EvalTurn } from './eval-dataset';

const USER = 'Mina';
const ASSISTANT = 'Loci';

type Line = readonly [who: 'u' | 'a', text: string];

const SESSIONS: ReadonlyArray<{ start: string; lines: readonly Line[] }> = [
  {
    start: '2025-03-03T08:10:00Z',
    lines: [
      ['u', 'Good morning! I just moved to Lyon for a new job at a robotics lab.'],
      ['a', 'Welcome to Lyon! What will you work on at the lab?'],
      ['u', 'Mostly the vision system of a warehouse robot. My manager is called Odile.'],
      ['a', 'That sounds exciting. How is the new flat?'],
      ['u', 'Small but bright, on the fourth floor, with a balcony full of basil.'],
      ['a', 'Basil on a balcony is a good start. Do you cook much?'],
      ['u', 'I bake sourdough bread every Saturday; my starter is named Gus.'],
      ['a', 'A starter with a name! I will remember Gus.'],
      ['u', 'My sister Hana lives in Osaka and teaches piano.'],
      ['a', 'Do you visit her often?'],
      ['u', 'Once a year, usually in April for the cherry blossoms.'],
      ['a', 'That must be lovely.'],
    ],
  },
  {
    start: '2025-03-05T19:30:00Z',
    lines: [
      ['u', '今天下班后我去了游泳馆，游了一千五百米。'],
      ['a', '太棒了！你每周游几次？'],
      ['u', '一般每周三次。我的目标是六月参加湖上公开水域比赛。'],
      ['a', '公开水域比赛听起来很有挑战。'],
      ['u', '对了，我对花生过敏，吃东西要特别小心。'],
      ['a', '我记住了：花生过敏。'],
      ['u', 'The robot demo for the investors is on the 14th of March.'],
      ['a', 'Are you nervous about the demo?'],
      ['u', 'A bit. The arm still drops the blue boxes sometimes.'],
      ['a', 'Maybe the lighting confuses the camera?'],
    ],
  },
  {
    start: '2025-03-09T10:00:00Z',
    lines: [
      ['u', 'I adopted a cat from the shelter this weekend! She is black and called Miso.'],
      ['a', 'Congratulations! How is Miso settling in?'],
      ['u', 'She hides under the sofa but loves the sunny spot by the window.'],
      ['a', 'Give her a few days.'],
      ['u', '我妈妈下个月要来看我，她想去博若莱喝葡萄酒。'],
      ['a', '很好的计划！她会住多久？'],
      ['u', '大概十天，她四月十二号到。'],
      ['a', '希望天气好。'],
      ['u', 'I am reading a novel by Ursula Le Guin, The Dispossessed.'],
      ['a', 'A classic. How far are you?'],
      ['u', 'About halfway. I read it on the tram to work.'],
    ],
  },
  {
    start: '2025-03-15T21:15:00Z',
    lines: [
      ['u', 'The demo went well! Odile said the investors want a second meeting.'],
      ['a', 'Wonderful news! Did the arm behave?'],
      ['u', 'Yes, after we changed the lights to a warmer colour it picked every box.'],
      ['a', 'So it was the lighting after all.'],
      ['u', '我开始学日语了，每周二晚上上课，想下次去大阪跟姐姐的学生聊天。'],
      ['a', '加油！学日语需要坚持。'],
      ['u', 'Miso finally sleeps on my bed now.'],
      ['a', 'She trusts you.'],
      ['u', 'I am thinking of buying a road bike to ride along the Rhône.'],
      ['a', 'The river paths are great for cycling.'],
    ],
  },
];

const QUESTIONS: ReadonlyArray<
  readonly [question: string, answer: string, evidence: string[], category: number]
> = [
  ['Which city did Mina move to?', 'Lyon', ['P1:1'], 4],
  ["What is the name of Mina's manager?", 'Odile', ['P1:3'], 4],
  ["What is Mina's sourdough starter called?", 'Gus', ['P1:7'], 4],
  ['Where does Mina’s sister live and what does she teach?', 'Osaka, piano', ['P1:9'], 4],
  ['米娜每周游泳几次？', '三次', ['P2:3'], 4],
  ['米娜对什么过敏？', '花生', ['P2:5'], 4],
  ['When was the robot demo for the investors?', '14 March 2025', ['P2:7'], 2],
  ['What fixed the robot arm dropping boxes?', 'warmer lights', ['P2:9', 'P4:3'], 1],
  ["What is the name and colour of Mina's cat?", 'Miso, black', ['P3:1'], 4],
  ['米娜的妈妈什么时候来？', '四月十二号', ['P3:7'], 2],
  ['米娜的妈妈想去哪里？', '博若莱', ['P3:5'], 4],
  ['Which book is Mina reading?', 'The Dispossessed', ['P3:9'], 4],
  ['米娜为什么学日语？', '去大阪跟姐姐的学生聊天', ['P4:5', 'P1:9'], 1],
  ['What does Mina grow on her balcony?', 'basil', ['P1:5'], 4],
  ['What kind of race is Mina training for in June?', 'open-water swim', ['P2:3'], 4],
];

/** The probe as an evaluation conversation (speaker_a = the user, Mina). */
export function probeConversation(): EvalConversation {
  const turns: EvalTurn[] = [];
  SESSIONS.forEach((session, s) => {
    const start = Date.parse(session.start) as EpochMs;
    session.lines.forEach(([who, text], i) => {
      turns.push({
        id: `P${s + 1}:${i + 1}`,
        speaker: who === 'u' ? USER : ASSISTANT,
        text,
        at: (start + i * 45_000) as EpochMs,
        session: s + 1,
      });
    });
  });
  const questions: EvalQuestion[] = QUESTIONS.map(([question, answer, evidence, category], i) => ({
    id: `probe#${i + 1}`,
    question,
    answer,
    evidence,
    category,
  }));
  return { id: 'loci-probe', speakers: [USER, ASSISTANT], turns, questions };
}
