// hmpirun's messages to the user.
#pragma once

#include <string_view>

namespace hmpirun {

// Prints "hmpirun: <text>" and a newline to stderr in a single write(2), so that the line is not
// broken up by output the program writes to the same stderr at the same moment.
void say(std::string_view text);

// say() followed by ": <strerror(errno)>".
void say_errno(std::string_view what);

}  // namespace hmpirun
