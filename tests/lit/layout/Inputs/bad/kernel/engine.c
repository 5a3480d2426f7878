#include "interp/internal.h"
