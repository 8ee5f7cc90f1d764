/* placeholder: being written */
#include <glib.h>
