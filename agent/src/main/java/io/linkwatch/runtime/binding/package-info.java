/** What the vendor bindings share: the sim's own exports and host memory at a native address. */
package io.linkwatch.runtime.binding;
