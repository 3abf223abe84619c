// `edgectl help environment`: every environment variable edgectl reads, and what it does, as
// `gh help environment` lists gh's. Declared once here; test/commands/help/environment.test.ts
// reads src/ for every variable read (`env.NAME`, `env["NAME"]` and the few helpers that read
// by a name they are given) and holds that this list names each, and names nothing unread.

export interface EnvironmentVariable {
  /** The variable, then the other spellings read for the same thing (`https_proxy`). */
  names: readonly string[];
  /** What it does: one paragraph, wrapped when printed. */
  about: string;
  /** Read by Node itself at start-up, not by edgectl's code. */
  readByNode?: true;
}

/** In the order `help environment` prints them: settings, secrets, network, files, terminal. */
export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  {
    names: ["EDGECTL_API_KEY"],
    about:
      "The API key, as --api-key gives it (better: not shown in process lists). It comes before NGROK_API_KEY and the profile's api_key. The emulator never reads it.",
  },
  {
    names: ["NGROK_API_KEY"],
    about: "The API key when EDGECTL_API_KEY is unset; it comes before the profile's api_key.",
  },
  {
    names: ["EDGECTL_BASE_URL"],
    about:
      "The API's base URL, as --base-url gives it (default https://api.ngrok.com); plain http only to a loopback host, such as the emulator's.",
  },
  {
    names: ["EDGECTL_PROFILE"],
    about: 'The profile of the config file to use, as --profile names it (default "default").',
  },
  {
    names: ["EDGECTL_OUTPUT"],
    about: "The output format, table or json, as -o gives it; errors follow it too.",
  },
  {
    names: ["EDGECTL_TIMEOUT"],
    about: "The time limit in seconds for a whole request, retries included, as --timeout gives it (default 30).",
  },
  {
    names: ["EDGECTL_RETRIES"],
    about: "Retries for a failed idempotent request, 0 to 10, as --retries gives it (default 3).",
  },
  {
    names: ["EDGECTL_DEBUG"],
    about:
      "Any value but 0 or false logs each request and response to stderr, secrets redacted, as --debug does (and shows where an internal error came from).",
  },
  {
    names: ["EDGECTL_WEBHOOK_SECRET"],
    about:
      "The webhook secret for `webhook-verification replace` and `endpoint webhook-verification replace` when no --secret-stdin, --secret-file or --secret is given.",
  },
  {
    names: ["HTTPS_PROXY", "https_proxy"],
    about:
      "The proxy (http://host:port, or https://) that requests to an https API go through, tunnelled with CONNECT: the proxy never sees the key. HTTP_PROXY and ALL_PROXY are not read.",
  },
  {
    names: ["NO_PROXY", "no_proxy"],
    about:
      "Hosts reached without the proxy, comma-separated: *, host names (their subdomains too), IP addresses, CIDR subnets, each with an optional :port.",
  },
  {
    names: ["NODE_EXTRA_CA_CERTS"],
    about:
      "A PEM file of more certificate authorities to trust, for an API or proxy whose certificate a private CA signed. Node reads it at start-up.",
    readByNode: true,
  },
  {
    names: ["EDGECTL_CONFIG_DIR"],
    about:
      "The folder of the config file, config.json (see `edgectl config path`). Default: $XDG_CONFIG_HOME/edgectl, else ~/.config/edgectl; on Windows %APPDATA%\\edgectl\\Config.",
  },
  {
    names: ["XDG_CONFIG_HOME"],
    about: "Where the config folder goes when EDGECTL_CONFIG_DIR is unset (not on Windows).",
  },
  {
    names: ["APPDATA"],
    about: "On Windows, where the config folder goes when EDGECTL_CONFIG_DIR is unset.",
  },
  {
    names: ["EDGECTL_CACHE_DIR"],
    about:
      "The folder of the compiled-code caches that make edgectl start faster (safe to delete). Default: $XDG_CACHE_HOME/edgectl, else ~/.cache/edgectl.",
  },
  {
    names: ["XDG_CACHE_HOME"],
    about: "Where the cache folder goes when EDGECTL_CACHE_DIR is unset.",
  },
  {
    names: ["HOME"],
    about: "The home folder, under which the config and cache folders go by default.",
  },
  {
    names: ["NO_COLOR"],
    about: "Any value turns colour off, as --no-color does. Colour is only ever used on a terminal.",
  },
  {
    names: ["FORCE_COLOR"],
    about: "0 turns colour off. Other values change nothing: colour is only ever used on a terminal.",
  },
  {
    names: ["TERM"],
    about: "dumb turns colour off.",
  },
];

/** The text `edgectl help environment` prints, wrapped at `width` columns. */
export function environmentHelp(width = 80): string {
  const lines = [
    ...wrap(
      "The environment variables edgectl reads. A variable set to blanks counts as unset. A setting comes from its flag first, then its variable, then the active profile of the config file, then its default.",
      width,
      "",
    ),
    "",
  ];
  for (const variable of ENVIRONMENT) {
    lines.push(variable.names.join(", "), ...wrap(variable.about, width, "  "), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** `text` in lines of at most `width` columns (a longer word alone on its line), each after `indent`. */
export function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}
