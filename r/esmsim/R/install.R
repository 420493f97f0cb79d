#' Install the self-contained esmsim program
#'
#' Downloads a release tarball of esmsim's self-contained build (what `make
#' dist` writes: `esmsim-VERSION-linux-x86_64.tar.gz`), checks its SHA-256,
#' and unpacks it where [esmsim_path()] looks (`tools::R_user_dir("esmsim",
#' "data")`), so that every function of the package finds it. The archive is
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
#' @param dir Where to unpack (default: where [esmsim_path()] looks).
#' @param quiet Do not say what was done.
#' @return The installed program's path, invisibly.
#' @examples
#' \dontrun{
#' install_esmsim("https://example.org/esmsim-0.1.0-linux-x86_64.tar.gz",
#'                sha256 = "3f1c...")
#' esm_version()
#' }
#' @export
install_esmsim <- function(url = getOption("esmsim.release_url"), sha256, dir = tools::R_user_dir("esmsim", "data"),
                           quiet = FALSE) {
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
  ok <- tryCatch(utils::download.file(url, archive, mode = "wb", quiet = TRUE) == 0, error = function(e) FALSE,
                 warning = function(w) FALSE)
  if (!ok || !file.exists(archive)) esm_abort(sprintf("esmsim: could not download %s", url), "esmsim_run_error")
  found <- file_sha256(archive)
  if (!identical(tolower(found), tolower(sha256))) {
    esm_abort(sprintf("esmsim: %s has SHA-256 %s, not the %s given: not installed", basename(url), found, tolower(sha256)),
              "esmsim_run_error")
  }
  if (utils::untar(archive, exdir = staging, tar = "internal") != 0) {
    esm_abort(sprintf("esmsim: could not unpack %s", basename(url)), "esmsim_run_error")
  }
  program <- file.path(staging, name, "esmsim")
  if (!file.exists(program)) {
    esm_abort(sprintf("esmsim: %s holds no %s/esmsim", basename(url), name), "esmsim_run_error")
  }
  Sys.chmod(program, "0755")
  target <- file.path(dir, name)
  if (dir.exists(target)) unlink(target, recursive = TRUE)
  if (!file.rename(file.path(staging, name), target)) {
    esm_abort(sprintf("esmsim: could not move the program into %s", dir), "esmsim_run_error")
  }
  path <- file.path(target, "esmsim")
  if (!quiet) message(sprintf("esmsim: installed %s into %s (SHA-256 checked)", name, target))
  invisible(path)
}

# A file's SHA-256 with the system's tool (sha256sum on Linux, shasum on macOS).
file_sha256 <- function(path) {
  tool <- if (nzchar(Sys.which("sha256sum"))) c("sha256sum") else c("shasum", "-a", "256")
  out <- processx::run(tool[[1]], c(tool[-1], path), error_on_status = FALSE)
  if (out$status != 0) esm_abort("esmsim: no sha256sum or shasum to check the download with", "esmsim_run_error")
  strsplit(trimws(out$stdout), "[[:space:]]+")[[1]][[1]]
}
