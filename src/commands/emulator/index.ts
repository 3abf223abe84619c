// placeholder until the emulator lands (helper is writing it)
import type { Command } from "commander";
import type { AppContext } from "../deps.js";
export function registerEmulator(_program: Command, _app: AppContext): void {}
