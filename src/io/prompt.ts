// Questions asked at a terminal. A prompt ends honestly: an answer resolves, Ctrl-C is an
// interruption (exit 130) and end of input (Ctrl-D) a refusal (exit 2); neither sends anything.
import { InterruptedError, UsageError } from "../errors.js";

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  /** Where the question goes (stderr, so stdout stays clean). */
  output: NodeJS.WritableStream;
}

/** One line from the terminal; with `hidden`, what is typed is not echoed. */
export async function ask(question: string, hidden: boolean, { input, output }: PromptStreams): Promise<string> {
  const { createInterface } = await import("node:readline"); // only commands that ask load it
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input, output, terminal: true });
    let settled = false;
    const end = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      rl.close();
      outcome();
    };
    if (hidden) {
      // Echo nothing while the key is typed.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.startsWith(question)) output.write(question);
      };
    }
    rl.on("SIGINT", () =>
      end(() => {
        output.write("\n");
        reject(new InterruptedError("interrupted (SIGINT)"));
      }),
    );
    rl.on("close", () =>
      end(() => {
        output.write("\n");
        reject(new UsageError("no answer: end of input; nothing was done"));
      }),
    );
    rl.question(question, (answer) =>
      end(() => {
        if (hidden) output.write("\n");
        resolve(answer);
      }),
    );
  });
}
