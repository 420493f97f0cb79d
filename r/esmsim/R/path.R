#' Where the esmsim program is
#'
#' Looks in this order: the option `esmsim.path`, the environment variable
#' `ESMSIM`, `esmsim` on the `PATH`, then the self-contained build (`make dist`)
#' unpacked by [install_esmsim()] into [esm_install_dir()] (the newest version
#' there, compared as versions: 0.10.0 after 0.9.0).
#'
#' @return The program's path. An error of class `esmsim_not_found` when none
#'   of the three names an executable file.
#' @export
esmsim_path <- function() {
  candidates <- list(
    list(getOption("esmsim.path"), "option esmsim.path"),
    list(Sys.getenv("ESMSIM", unset = ""), "environment variable ESMSIM")
  )
  for (c in candidates) {
    path <- c[[1]]
    if (is.null(path) || !nzchar(path)) next
    if (!file.exists(path) || dir.exists(path) || file.access(path, 1) != 0) {
      esm_abort(
        sprintf("esmsim: %s is %s, which is not an executable file", c[[2]], path),
        "esmsim_not_found"
      )
    }
    return(normalizePath(path))
  }
  found <- Sys.which("esmsim")
  if (nzchar(found)) return(unname(found))
  # The self-contained build (make dist), unpacked by install_esmsim() (or by Python's
  # esmsim.install(): the same folder); the newest version, compared as versions.
  newest <- newest_installed(esm_install_dir())
  if (!is.null(newest)) return(newest)
  esm_abort(
    paste(
      "esmsim: the esmsim program was not found.",
      "Install it in one line: install_esmsim(url, sha256 = \"...\") with your group's make dist tarball,",
      "or build it (make release) and set options(esmsim.path = \"path/to/esmsim\")",
      "or the environment variable ESMSIM, or put it on the PATH."
    ),
    "esmsim_not_found"
  )
}

# The newest executable esmsim-VERSION-linux-x86_64/esmsim under `dir`, by version (not by
# text: 0.10.0 is newer than 0.9.0); NULL when there is none.
newest_installed <- function(dir) {
  found <- Sys.glob(file.path(dir, "esmsim-*-linux-x86_64", "esmsim"))
  found <- found[file.access(found, 1) == 0]
  if (!length(found)) return(NULL)
  versions <- sub("^esmsim-(.*)-linux-x86_64$", "\\1", basename(dirname(found)))
  parsed <- lapply(versions, function(v) tryCatch(package_version(v), error = function(e) NULL))
  ok <- !vapply(parsed, is.null, TRUE)
  if (!any(ok)) return(found[[length(found)]])
  found <- found[ok]
  found[[order(do.call(c, parsed[ok]), decreasing = TRUE)[[1]]]]
}

#' The esmsim program's version
#'
#' @return A [package_version], for example `0.1.0`.
#' @export
esm_version <- function() {
  out <- esm_exec(c("--version"))
  # "0.1.0 (built from source)": the version is the first word.
  package_version(strsplit(trimws(out$stdout), " ", fixed = TRUE)[[1]][[1]])
}

# Runs esmsim with `args`; on a non-zero exit raises the condition its error
# describes (see errors.R). `echo` passes its output through. esmsim is asked to
# write its errors as JSON (ESMSIM_ERROR_FORMAT), so nothing of its English is parsed.
# With `progress`, esmsim writes a JSON progress line per update (ESMSIM_PROGRESS) and a
# bar with the time left is drawn on the console from them (progress_bar()).
esm_exec <- function(args, echo = FALSE, scenario = NULL, call = parent.frame(), progress = FALSE) {
  if (isTRUE(progress)) {
    result <- esm_exec_progress(args, echo)
  } else {
    # With echo, its output and standard error pass through, but not the JSON line of an
    # error: the condition raised below says it (it was printed raw before the condition).
    show_out <- if (isTRUE(echo)) function(line, proc) cat(line, "\n", sep = "") else NULL
    show_err <- if (isTRUE(echo)) function(line, proc) {
      if (!startsWith(line, "{\"esmsim_error\"")) cat(line, "\n", sep = "", file = stderr())
    } else NULL
    result <- processx::run(
      esmsim_path(), args,
      error_on_status = FALSE, echo = FALSE, spinner = FALSE,
      stdout_line_callback = show_out, stderr_line_callback = show_err,
      env = c(Sys.getenv(), ESMSIM_ERROR_FORMAT = "json")
    )
  }
  if (result$status != 0) {
    esm_fail(result$stderr, result$status, scenario = scenario, call = call)
  }
  result
}

# esmsim run with its progress lines read as they come: the bar is drawn from them, every
# other line of standard error is kept (errors, warnings) as processx::run would.
esm_exec_progress <- function(args, echo) {
  p <- processx::process$new(
    esmsim_path(), args, stdout = "|", stderr = "|",
    env = c(Sys.getenv(), ESMSIM_ERROR_FORMAT = "json", ESMSIM_PROGRESS = "json")
  )
  bar <- progress_bar()
  out <- character()
  err <- character()
  take <- function(lines) {
    is_progress <- startsWith(lines, "{\"progress\"")
    for (l in lines[is_progress]) bar(jsonlite::fromJSON(l)$progress)
    err <<- c(err, lines[!is_progress])
  }
  while (p$is_alive() || p$is_incomplete_output() || p$is_incomplete_error()) {
    p$poll_io(200)
    o <- p$read_output_lines()
    if (echo && length(o)) cat(o, sep = "\n")
    out <- c(out, o)
    take(p$read_error_lines())
    if (!p$is_alive() && !p$is_incomplete_output() && !p$is_incomplete_error()) break
  }
  p$wait()
  bar(NULL)
  list(status = p$get_exit_status(), stdout = paste0(paste(out, collapse = "\n"), if (length(out)) "\n" else ""),
       stderr = paste0(paste(err, collapse = "\n"), if (length(err)) "\n" else ""))
}

# A console progress bar drawn from esmsim's progress lines: the study's share done over its
# variants and replications, and the time left. Called with NULL it ends the line.
progress_bar <- function() {
  shown <- FALSE
  function(p) {
    if (is.null(p)) {
      if (shown) cat("\n", file = stderr())
      return(invisible(NULL))
    }
    share <- ((p$step - 1) + p$done / max(p$participants, 1)) / max(p$steps, 1)
    width <- 30
    filled <- floor(width * share)
    left <- p$seconds_left + (p$steps - p$step) * (p$seconds + p$seconds_left)
    cat(sprintf("\r[%s%s] %3.0f %% (%s) about %s left ", strrep("=", filled), strrep(" ", width - filled), 100 * share,
                p$label, format_seconds(left)), file = stderr())
    shown <<- TRUE
    invisible(NULL)
  }
}

format_seconds <- function(s) {
  if (!is.finite(s) || s < 0) return("?")
  if (s < 60) sprintf("%.0f s", s) else if (s < 3600) sprintf("%.1f min", s / 60) else sprintf("%.1f h", s / 3600)
}
