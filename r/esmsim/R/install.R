#' Install the self-contained esmsim program
#'
#' Downloads a release tarball of esmsim's self-contained build (what `make
#' dist` writes: `esmsim-VERSION-linux-x86_64.tar.gz`), checks its SHA-256,
#' and unpacks it where [esmsim_path()] looks ([esm_install_dir()], the folder
#' Python's `esmsim.install()` uses too), so that every function finds it. Every
#' member of the archive is checked before anything is written (regular files
#' and folders under its own folder: no links, absolute paths or `..`), and the
#' program must run (`esmsim --version`) before it is installed. The archive is
#' unpacked into a temporary folder beside the target and moved into place only
#' when whole: a wrong checksum, a broken download or an archive without the
#' program leaves nothing behind.
#'
#' @param url The tarball's address. No public release address is known to this
#'   version of the package: give the one your group serves (for example a `make
#'   dist` tarball on an internal web server), or set the option
#'   `esmsim.release_url`.
#' @param sha256 The tarball's SHA-256 (the `.sha256` file `make dist` writes
#'   beside it); required.
#' @param dir Where to unpack (default: [esm_install_dir()], where [esmsim_path()] looks).
#' @param quiet Do not say what was done.
#' @return The installed program's path, invisibly.
#' @examples
#' \dontrun{
#' install_esmsim("https://example.org/esmsim-0.1.0-linux-x86_64.tar.gz",
#'                sha256 = "3f1c...")
#' esm_version()
#' }
#' @export
install_esmsim <- function(url = getOption("esmsim.release_url"), sha256, dir = esm_install_dir(), quiet = FALSE) {
  if (is.null(url) || !nzchar(url)) {
    esm_abort("esmsim: no release address is known to this package version: give url (a make dist tarball)",
              "esmsim_run_error")
  }
  if (missing(sha256) || !is.character(sha256) || !grepl("^[0-9a-fA-F]{64}$", sha256)) {
    esm_abort("esmsim: give the tarball's sha256 (64 hexadecimal digits, the .sha256 file beside it)", "esmsim_run_error")
  }
  name <- sub("\\.tar\\.gz$", "", basename(sub("[?#].*$", "", url)))
  if (!grepl("^esmsim-[A-Za-z0-9._-]+-linux-x86_64$", name)) {
    esm_abort(sprintf("esmsim: %s is not an esmsim release tarball (esmsim-VERSION-linux-x86_64.tar.gz)", basename(url)),
              "esmsim_run_error")
  }
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  staging <- tempfile("install-", tmpdir = dir)
  dir.create(staging)
  on.exit(unlink(staging, recursive = TRUE), add = TRUE)
  archive <- file.path(staging, paste0(name, ".tar.gz"))
  # The download's own words on failure (its warnings carry the HTTP status: "HTTP status was
  # '404 Not Found'").
  said <- character()
  failure <- tryCatch({
    withCallingHandlers(
      if (utils::download.file(url, archive, mode = "wb", quiet = TRUE) == 0) NULL else "the download failed",
      warning = function(w) {
        said <<- c(said, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
  }, error = function(e) conditionMessage(e))
  if (!is.null(failure) || !file.exists(archive)) {
    esm_abort(sprintf("esmsim: could not download %s: %s", url, paste(unique(c(said, failure, "no file")[1:max(1, length(c(said, failure)))]), collapse = "; ")),
              "esmsim_run_error")
  }
  found <- file_sha256(archive)
  if (!identical(tolower(found), tolower(sha256))) {
    esm_abort(sprintf("esmsim: %s has SHA-256 %s, not the %s given: not installed", basename(url), found, tolower(sha256)),
              "esmsim_run_error")
  }
  # Every member checked before anything is written: regular files and folders under NAME/,
  # no links, no absolute paths, no "..".
  members <- tar_members(archive, basename(url))
  bad <- members[members$type != "file" & members$type != "folder" | !startsWith(members$name, paste0(name, "/")) &
                   members$name != name | grepl("(^|/)\\.\\.(/|$)", members$name) | startsWith(members$name, "/"), ]
  if (nrow(bad)) {
    esm_abort(sprintf("esmsim: %s holds %s '%s': only regular files and folders under %s/ are installed; not installed",
                      basename(url), bad$type[[1]], bad$name[[1]], name), "esmsim_run_error")
  }
  if (utils::untar(archive, exdir = staging, tar = "internal") != 0) {
    esm_abort(sprintf("esmsim: could not unpack %s", basename(url)), "esmsim_run_error")
  }
  program <- file.path(staging, name, "esmsim")
  if (!file.exists(program)) {
    esm_abort(sprintf("esmsim: %s holds no %s/esmsim", basename(url), name), "esmsim_run_error")
  }
  Sys.chmod(program, "0755")
  # The program must run here before it is installed (the right system, a whole file).
  ran <- tryCatch(processx::run(program, "--version", error_on_status = FALSE, timeout = 60),
                  error = function(e) list(status = -1, stdout = "", stderr = conditionMessage(e)))
  if (ran$status != 0 || !grepl("^[0-9]", ran$stdout)) {
    esm_abort(sprintf("esmsim: %s/esmsim does not run on this machine (esmsim --version: %s): not installed", name,
                      trimws(paste(ran$stderr, if (ran$status == 0) ran$stdout else sprintf("exit status %s", ran$status)))),
              "esmsim_run_error")
  }
  target <- file.path(dir, name)
  if (dir.exists(target)) unlink(target, recursive = TRUE)
  if (!file.rename(file.path(staging, name), target)) {
    esm_abort(sprintf("esmsim: could not move the program into %s", dir), "esmsim_run_error")
  }
  path <- file.path(target, "esmsim")
  if (!quiet) {
    message(sprintf("esmsim: installed %s into %s (SHA-256 checked; esmsim --version: %s)", name, target, trimws(ran$stdout)))
  }
  invisible(path)
}

#' Where the installers put esmsim
#'
#' The folder [install_esmsim()] unpacks into and [esmsim_path()] looks in:
#' `$XDG_DATA_HOME/esmsim`, else `~/.local/share/esmsim`; the Python package's
#' `esmsim.install()` uses the same folder, so one install serves both.
#'
#' @return The folder's path.
#' @export
esm_install_dir <- function() {
  base <- Sys.getenv("XDG_DATA_HOME", unset = "")
  if (!nzchar(base)) base <- file.path(path.expand("~"), ".local", "share")
  file.path(base, "esmsim")
}

# A gzipped tar's members, read from their headers without unpacking anything: a data frame of
# name and type ("file", "folder", "symbolic link", "hard link", "device", "long name or pax
# header"). Read in R, so that what is checked is what R's own untar will write.
tar_members <- function(archive, label) {
  con <- gzfile(archive, "rb")
  on.exit(close(con), add = TRUE)
  out <- list()
  types <- c("0" = "file", "\\0" = "file", "5" = "folder", "1" = "hard link", "2" = "symbolic link", "3" = "device",
             "4" = "device", "6" = "fifo", "7" = "file")
  field <- function(raw) {
    end <- match(as.raw(0), raw, nomatch = length(raw) + 1L)
    if (end == 1L) "" else rawToChar(raw[seq_len(end - 1L)])
  }
  repeat {
    header <- readBin(con, "raw", 512)
    if (length(header) < 512 || all(header == 0)) break
    name <- field(header[1:100])
    prefix <- field(header[346:500])
    if (nzchar(prefix) && identical(rawToChar(header[258:262]), "ustar")) name <- paste0(prefix, "/", name)
    flag <- if (header[157] == 0) "\\0" else rawToChar(header[157])
    type <- if (flag %in% names(types)) types[[flag]] else "long name or pax header"
    size_text <- trimws(gsub("[^0-7 ]", "", field(header[125:136])))
    size <- if (nzchar(size_text)) strtoi(size_text, 8L) else NA
    if (is.na(size) || size < 0) esm_abort(sprintf("esmsim: %s is not a tar archive (a member's size)", label), "esmsim_run_error")
    out[[length(out) + 1]] <- data.frame(name = sub("/$", "", name), type = type, stringsAsFactors = FALSE)
    # Skip the member's data, in 512-byte blocks.
    remaining <- ceiling(size / 512) * 512
    while (remaining > 0) {
      got <- length(readBin(con, "raw", min(remaining, 1048576)))
      if (got == 0) esm_abort(sprintf("esmsim: %s ends inside a member", label), "esmsim_run_error")
      remaining <- remaining - got
    }
  }
  if (!length(out)) esm_abort(sprintf("esmsim: %s is empty or not a tar archive", label), "esmsim_run_error")
  do.call(rbind, out)
}

# A file's SHA-256 with the system's tool (sha256sum on Linux, shasum on macOS).
file_sha256 <- function(path) {
  tool <- if (nzchar(Sys.which("sha256sum"))) c("sha256sum") else c("shasum", "-a", "256")
  out <- processx::run(tool[[1]], c(tool[-1], path), error_on_status = FALSE)
  if (out$status != 0) esm_abort("esmsim: no sha256sum or shasum to check the download with", "esmsim_run_error")
  strsplit(trimws(out$stdout), "[[:space:]]+")[[1]][[1]]
}
