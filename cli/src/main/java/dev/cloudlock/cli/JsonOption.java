package dev.cloudlock.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code --json}, the option every command shares: a mixin of the root command whose option picocli copies to each
 * subcommand ({@link ScopeType#INHERIT}), all of them setting this one value, so that it may come before or after the
 * command's name. Under it standard output holds one JSON document ({@link Json}), the answer or the error.
 */
final class JsonOption {

    @Option(
            names = "--json",
            scope = ScopeType.INHERIT,
            description = "Print one JSON document (the cloudlocks endpoint's shape, errors too) instead of text.")
    boolean json;
}
