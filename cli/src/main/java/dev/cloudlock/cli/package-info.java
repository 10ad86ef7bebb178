/** The {@code cloudlock} command line: an operator's view of the locks on any store ({@code LockAdmin}). */
@NullMarked
package dev.cloudlock.cli;

import org.jspecify.annotations.NullMarked;
