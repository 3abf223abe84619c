import type { Command } from "commander";
import type { AppContext } from "../deps.js";
import { register as login } from "./login.js";
import { register as logout } from "./logout.js";
import { register as status } from "./status.js";

export function registerAuth(program: Command, app: AppContext): void {
  const noun = program.command("auth").description("Log in, check and log out (the API key of a profile)");
  for (const verb of [login, status, logout]) verb(noun, app);
}
